package io.queuekit.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The run loop's pieces: the order of the implementations in each run, the options, the ranges
 * over the runs the summary prints, and the CPU steal a results file's header reports.
 */
class BenchTest {
    private static final Path OUT = Path.of("results.txt");

    @Test
    void rotated_startsEachRunWithAnotherImplementation() {
        List<String> impls = List.of("a", "b", "c");

        assertThat(Bench.rotated(impls, 0)).containsExactly("a", "b", "c");
        assertThat(Bench.rotated(impls, 1)).containsExactly("b", "c", "a");
        assertThat(Bench.rotated(impls, 2)).containsExactly("c", "a", "b");
        assertThat(Bench.rotated(impls, 3)).containsExactly("a", "b", "c");
        assertThat(Bench.rotated(List.of("a", "b"), 1)).containsExactly("b", "a");
        assertThat(Bench.rotated(List.of(), 1)).isEmpty();
    }

    @Test
    void options_runThreeTimesPinned_byDefault() {
        BenchConfig config = BenchConfig.parse(new String[0], OUT);

        assertThat(config.runCount()).isEqualTo(BenchConfig.RUNS).isEqualTo(3);
        assertThat(config.pin()).isTrue();
    }

    @Test
    void options_setRunsAndPinning() {
        BenchConfig config = BenchConfig.parse(new String[] {"--runs", "1", "--no-pin"}, OUT);

        assertThat(config.runCount()).isEqualTo(1);
        assertThat(config.pin()).isFalse();
        assertThat(BenchConfig.parse(new String[] {"--runs=2", "--no-pin", "--pin"}, OUT))
                .extracting(BenchConfig::runCount, BenchConfig::pin)
                .containsExactly(2, true);
    }

    @Test
    void options_refuseRunsOutOfRange_andAValueForAFlag() {
        assertThatThrownBy(() -> BenchConfig.parse(new String[] {"--runs", "0"}, OUT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("runs must be 1 to 100: 0");
        assertThatThrownBy(() -> BenchConfig.parse(new String[] {"--runs", "two"}, OUT))
                .hasMessage("--runs needs a whole number: 'two'");
        assertThatThrownBy(() -> BenchConfig.parse(new String[] {"--pin=false"}, OUT))
                .hasMessage("--pin takes no value: '--pin=false'");
    }

    @Test
    void coreLists_readAsTasksetPrintsThem() {
        assertThat(Pinning.parseList("0,1")).containsExactly(0, 1);
        assertThat(Pinning.parseList(" 0-3,6\n")).containsExactly(0, 1, 2, 3, 6);
    }

    @Test
    void eachCell_isItsRangeOverTheRuns_lowestFirst() {
        List<Result> row = List.of(delay(1, 120.5, 2.9), delay(2, 98.25, 3.0), delay(3, 101, 3.1));

        assertThat(Report.range(row, Result::redisCpuUsPerMsg, "%.2f")).isEqualTo("98.25..120.50");
        assertThat(Report.range(
                        row,
                        r -> r.counts()
                                .map(c -> OptionalDouble.of(c.commands()))
                                .orElseThrow(),
                        "%.2f"))
                .isEqualTo("30.00");
        assertThat(Report.range(row, r -> OptionalDouble.empty(), "%.2f")).isEqualTo("-");
    }

    @Test
    void theSpreadLine_showsHowLittleCountsMove_againstTheCpu() {
        Map<String, List<Result>> rows =
                Report.byRow(List.of(delay(1, 100, 2.0), delay(2, 150, 2.02), delay(3, 120, 2.01)));

        assertThat(Report.spread(rows))
                .endsWith("script calls 1.0% and 1.0%, commands 0.0% and 0.0%, round trips 0.0% and 0.0%,"
                        + " Redis CPU 50.0% and 50.0%");
    }

    private static Result delay(int run, double cpu, double scripts) {
        return new Result(
                        Scenarios.DELAY_LOAD,
                        Impls.ZSET,
                        100_000,
                        30_000,
                        1,
                        5,
                        9,
                        0,
                        0,
                        OptionalLong.of(0),
                        OptionalDouble.of(cpu),
                        OptionalDouble.empty(),
                        true,
                        "",
                        "")
                .withCosts(new RedisProbe.Costs(new Counts(scripts, 30, 4), "evalsha " + scripts))
                .inRun(run);
    }

    @Test
    void stolen_isTheStealShareOfTheTimeBetweenTwoReadings() {
        assertThat(Bench.stolen(new long[] {1_000, 50}, new long[] {1_400, 150}))
                .isEqualTo("CPU steal 25%");
        assertThat(Bench.stolen(new long[] {1_000, 50}, new long[] {1_400, 50})).isEqualTo("CPU steal 0%");
    }

    @Test
    void stolen_isUnknown_withoutTwoReadings() {
        assertThat(Bench.stolen(null, new long[] {1_400, 150})).isEqualTo("CPU steal unknown");
        assertThat(Bench.stolen(new long[] {1_000, 50}, new long[] {1_000, 50})).isEqualTo("CPU steal unknown");
    }

    @Test
    void cpuTicks_onLinux_hasSomeTimeAndAStealNoLargerThanIt() {
        long[] ticks = Bench.cpuTicks();
        assumeTrue(ticks != null, "no /proc/stat here: the header says the steal is unknown");
        assertThat(ticks[0]).isPositive();
        assertThat(ticks[1]).isBetween(0L, ticks[0]);
    }
}
