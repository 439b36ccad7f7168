package io.queuekit.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

/** The CPU steal a results file's header reports, from two readings of the machine's CPU time. */
class BenchTest {
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
