package io.queuekit.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Targets judged over several runs: PASS only if every run met them, n/a without a row they need. */
class TargetsTest {
    private static final String LIST_VS_JEDIS = "list at-least-once consume() vs plain Jedis LPUSH + BRPOP >= 1.0x";
    private static final String WORK_QUEUE_VS_BULLMQ =
            "work-queue: queuekit-list-alo Redis CPU per message <= 1/2 of" + " BullMQ's, msgs/s >= BullMQ's";
    private static final String LIGHT_VS_BULLMQ = "delay-light: queuekit-zset Redis CPU per message <= 1/2 of BullMQ's,"
            + " msgs/s >= BullMQ's, p99 lateness < 10 ms, none early";

    @Test
    void aTarget_metInEveryRun_passes_withItsRange() {
        String line = verdict(
                LIST_VS_JEDIS,
                run(queue(Impls.LIST_ALO, 11_000, 40), queue(Impls.JEDIS_LIST, 10_000, 30)),
                run(queue(Impls.LIST_ALO, 12_500, 40), queue(Impls.JEDIS_LIST, 10_000, 30)),
                run(queue(Impls.LIST_ALO, 10_000, 40), queue(Impls.JEDIS_LIST, 10_000, 30)));

        assertThat(line)
                .isEqualTo("TARGET PASS  " + LIST_VS_JEDIS
                        + ": 1.00x to 1.25x (10000 to 12500 vs 10000 msgs/s) over 3 runs");
    }

    @Test
    void aTarget_missedInOneRun_missesOverTheRuns_andSaysWhichRun() {
        String line = verdict(
                LIST_VS_JEDIS,
                run(queue(Impls.LIST_ALO, 11_000, 40), queue(Impls.JEDIS_LIST, 10_000, 30)),
                run(queue(Impls.LIST_ALO, 9_000, 40), queue(Impls.JEDIS_LIST, 10_000, 30)),
                run(queue(Impls.LIST_ALO, 12_000, 40), queue(Impls.JEDIS_LIST, 10_000, 30)));

        assertThat(line)
                .startsWith("TARGET MISS  " + LIST_VS_JEDIS + ": 0.90x to 1.20x")
                .endsWith("over 3 runs; missed in run 2");
    }

    @Test
    void aTarget_whosePeerRowIsMissing_isNotApplicable_neverPass() {
        String line = verdict(
                WORK_QUEUE_VS_BULLMQ, run(queue(Impls.LIST_ALO, 11_000, 40)), run(queue(Impls.LIST_ALO, 11_000, 40)));

        assertThat(line)
                .isEqualTo("TARGET n/a   " + WORK_QUEUE_VS_BULLMQ + ": not measured: no bullmq row in work-queue");
    }

    @Test
    void aTarget_whosePeerCouldNotRunHere_isNotApplicable() {
        Result nodeMissing = new Result(
                Scenarios.WORK_QUEUE,
                Targets.BULLMQ,
                200_000,
                0,
                0,
                0,
                0,
                0,
                200_000,
                OptionalLong.empty(),
                OptionalDouble.empty(),
                OptionalDouble.empty(),
                false,
                "n/a: node is not on PATH",
                "");

        String line = verdict(WORK_QUEUE_VS_BULLMQ, run(queue(Impls.LIST_ALO, 11_000, 40), nodeMissing));

        assertThat(line).startsWith("TARGET n/a ").contains("bullmq: n/a: node is not on PATH");
    }

    @Test
    void aTarget_metInSomeRuns_andUnjudgedInAnother_isNotApplicable() {
        String line = verdict(
                WORK_QUEUE_VS_BULLMQ,
                run(queue(Impls.LIST_ALO, 11_000, 40), queue(Targets.BULLMQ, 5_000, 110)),
                run(queue(Impls.LIST_ALO, 11_000, 40)));

        assertThat(line)
                .startsWith("TARGET n/a   " + WORK_QUEUE_VS_BULLMQ + ": CPU 0.36x (40.00 vs 110.00 us/msg)")
                .endsWith("over 1 of 2 runs; n/a in run 2 (not measured: no bullmq row in work-queue)");
    }

    @Test
    void theBullmqTarget_needsHalfItsCpu_andAtLeastItsRate() {
        assertThat(verdict(
                        WORK_QUEUE_VS_BULLMQ,
                        run(queue(Impls.LIST_ALO, 11_000, 50), queue(Targets.BULLMQ, 5_000, 100))))
                .startsWith("TARGET PASS ");
        assertThat(verdict(
                        WORK_QUEUE_VS_BULLMQ,
                        run(queue(Impls.LIST_ALO, 11_000, 51), queue(Targets.BULLMQ, 5_000, 100))))
                .startsWith("TARGET MISS ");
        assertThat(verdict(
                        WORK_QUEUE_VS_BULLMQ, run(queue(Impls.LIST_ALO, 4_999, 40), queue(Targets.BULLMQ, 5_000, 100))))
                .startsWith("TARGET MISS ");
    }

    @Test
    void theBullmqTarget_ofADelayShape_needsLatenessUnder10ms_tooAndNoneEarly() {
        assertThat(verdict(LIGHT_VS_BULLMQ, run(light(Impls.ZSET, 9.9, 0), light(Targets.BULLMQ, 70, 0))))
                .startsWith("TARGET PASS ")
                .contains("p99 9.9 ms (BullMQ 70.0), early 0");
        assertThat(verdict(LIGHT_VS_BULLMQ, run(light(Impls.ZSET, 10.0, 0), light(Targets.BULLMQ, 70, 0))))
                .startsWith("TARGET MISS ");
        assertThat(verdict(LIGHT_VS_BULLMQ, run(light(Impls.ZSET, 3.0, 1), light(Targets.BULLMQ, 70, 0))))
                .startsWith("TARGET MISS ");
    }

    @Test
    void ours_cutShort_isAMiss_whateverItMeasured() {
        Result cut = new Result(
                Scenarios.WORK_QUEUE,
                Impls.LIST_ALO,
                200_000,
                20_000,
                1,
                2,
                3,
                0,
                0,
                OptionalLong.empty(),
                OptionalDouble.of(40),
                OptionalDouble.empty(),
                true,
                "time limit reached after sending 150000 of 200000",
                "");

        assertThat(verdict(LIST_VS_JEDIS, run(cut, queue(Impls.JEDIS_LIST, 10_000, 30))))
                .startsWith("TARGET MISS  " + LIST_VS_JEDIS + ": 2.00x")
                .contains("ours lost messages or was cut short");
    }

    @Test
    void everyRetiredTarget_isNoLongerJudged() {
        List<String> judged =
                Targets.evaluate(List.of()).stream().map(Check::target).toList();

        assertThat(Targets.RETIRED).isNotEmpty().allSatisfy(r -> {
            assertThat(judged).doesNotContain(r.target());
            assertThat(r.reason()).isNotBlank();
        });
    }

    /** The results of one run. */
    private record Run(List<Result> results) {}

    private static String verdict(String target, Run... runs) {
        List<List<Check>> checks = new ArrayList<>();
        Arrays.stream(runs).forEach(r -> checks.add(Targets.evaluate(r.results())));
        List<String> lines = Check.verdicts(checks).stream()
                .filter(l -> l.contains("  " + target + ": "))
                .toList();
        assertThat(lines).as("the verdict on %s", target).hasSize(1);
        return lines.get(0);
    }

    private static Run run(Result... results) {
        return new Run(List.of(results));
    }

    private static Result queue(String impl, double perS, double cpu) {
        return new Result(
                Scenarios.WORK_QUEUE,
                impl,
                200_000,
                perS,
                1,
                2,
                3,
                0,
                0,
                OptionalLong.empty(),
                OptionalDouble.of(cpu),
                OptionalDouble.empty(),
                Impls.atLeastOnce(impl),
                "",
                "");
    }

    private static Result light(String impl, double p99, long early) {
        return new Result(
                Scenarios.DELAY_LIGHT,
                impl,
                200,
                50,
                1,
                p99,
                p99 + 1,
                0,
                0,
                OptionalLong.of(early),
                OptionalDouble.of(impl.equals(Impls.ZSET) ? 200 : 900),
                OptionalDouble.empty(),
                Impls.atLeastOnce(impl),
                "",
                "");
    }
}
