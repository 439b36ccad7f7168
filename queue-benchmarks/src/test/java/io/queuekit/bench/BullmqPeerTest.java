package io.queuekit.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Our side of the BullMQ peer, without node: finding its script, reading its result, saying n/a. */
class BullmqPeerTest {
    private static final String LOAD_LINE = "{\"event\":\"result\",\"shape\":\"delay-load-5s\",\"sent\":1000,"
            + "\"received\":998,\"duplicates\":3,\"lost\":2,\"early\":1,\"p50_ms\":34.2,\"p99_ms\":102.5,"
            + "\"max_ms\":121.25,\"window_s\":6.4,\"msgs_per_s\":156.3,\"note\":\"\",\"producer_s\":1.4,"
            + "\"bullmq\":\"6.7.6\",\"node\":\"v20.20.2\"}";

    @Test
    void result_readsTheScriptsLine_withRedisCpuPerMessage() throws Exception {
        Result r = BullmqPeer.result(Scenarios.DELAY_LOAD_5S, LOAD_LINE, 50_000);

        assertThat(r.impl()).isEqualTo(Impls.BULLMQ);
        assertThat(r.scenario()).isEqualTo(Scenarios.DELAY_LOAD_5S);
        assertThat(r.msgs()).isEqualTo(1000);
        assertThat(r.msgsPerS()).isEqualTo(156.3);
        assertThat(new double[] {r.p50Ms(), r.p99Ms(), r.maxMs()}).containsExactly(34.2, 102.5, 121.25);
        assertThat(r.dupes()).isEqualTo(3);
        assertThat(r.lost()).isEqualTo(2);
        assertThat(r.early()).hasValue(1);
        assertThat(r.redisCpuUsPerMsg().getAsDouble()).isCloseTo(50.0, within(1e-9));
        assertThat(r.producerSeconds()).hasValue(1.4);
        assertThat(r.atLeastOnce()).isFalse();
        assertThat(r.note()).isEmpty();
    }

    @Test
    void result_ofTheWorkQueue_hasNoEarlyCount() throws Exception {
        String line = "{\"event\":\"result\",\"sent\":20,\"received\":20,\"duplicates\":0,\"lost\":0,\"early\":0,"
                + "\"p50_ms\":1.5,\"p99_ms\":2,\"max_ms\":3,\"window_s\":0.1,\"msgs_per_s\":200,"
                + "\"note\":\"time limit reached after sending 20 of 40\"}";

        Result r = BullmqPeer.result(Scenarios.WORK_QUEUE, line, 100);

        assertThat(r.early()).isEmpty();
        assertThat(r.producerSeconds()).isEmpty();
        assertThat(r.note()).isEqualTo("time limit reached after sending 20 of 40");
        assertThat(r.line()).startsWith("BENCH scenario=work-queue impl=bullmq run=1 msgs=20 msgs_per_s=200");
    }

    @Test
    @Timeout(60)
    void run_withoutNode_isARowSayingNotAvailable_andWhy(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(BullmqPeer.SCRIPT), "");
        Files.writeString(dir.resolve("package.json"), "{}");
        BenchConfig config = new BenchConfig(1, 1, Set.of(), Set.of(), false, 10, dir.resolve("out"), dir, 1, false);
        // no Redis: a run without node returns before it would reach one
        Context ctx = new Context(config, "redis://127.0.0.1:1", null, 0, Pinning.off("a test"));

        Result r = new BullmqPeer("queuekit-no-such-node").run(Scenarios.DELAY_LIGHT, ctx);

        assertThat(r.note()).startsWith("n/a: node not found (queuekit-no-such-node --version");
        assertThat(r.msgs()).isZero();
        assertThat(r.impl()).isEqualTo(Impls.BULLMQ);
    }

    @Test
    void locate_findsTheScript_fromTheRepositoryRoot_andFromTheJar(@TempDir Path root) throws Exception {
        Path bullmq = Files.createDirectories(root.resolve("queue-benchmarks").resolve("bullmq"));
        Files.writeString(bullmq.resolve(BullmqPeer.SCRIPT), "");
        Files.writeString(bullmq.resolve("package.json"), "{}");
        Path jar = root.resolve("queue-benchmarks").resolve("target").resolve("queuekit-benchmarks.jar");
        Path elsewhere = Files.createDirectories(root.resolve("elsewhere"));

        assertThat(BullmqPeer.locate(null, root, null)).hasValue(bullmq);
        assertThat(BullmqPeer.locate(null, root.resolve("queue-benchmarks"), null))
                .hasValue(bullmq);
        assertThat(BullmqPeer.locate(null, elsewhere, jar)).hasValue(bullmq);
        assertThat(BullmqPeer.locate(null, elsewhere, jar.resolveSibling("classes")))
                .hasValue(bullmq);
        assertThat(BullmqPeer.locate(null, elsewhere, elsewhere.resolve("x.jar")))
                .isEmpty();
        assertThat(BullmqPeer.locate(elsewhere, root, jar))
                .as("--bullmq-dir is the only place looked at")
                .isEmpty();
        assertThat(BullmqPeer.locate(bullmq, elsewhere, null)).hasValue(bullmq);
    }

    @Test
    void nodeMajor_readsNodesVersion() {
        assertThat(BullmqPeer.nodeMajor("v20.20.2")).isEqualTo(20);
        assertThat(BullmqPeer.nodeMajor("not a version")).isZero();
    }

    @Test
    void bullmq_runsBesideOursInTheShapesOfItsScript() throws Exception {
        List<String> beside = Scenarios.all().stream()
                .filter(s -> s.impls().contains(Impls.BULLMQ))
                .map(Scenario::name)
                .toList();
        String script = Files.readString(Path.of("bullmq", BullmqPeer.SCRIPT));

        assertThat(beside)
                .containsExactly(
                        Scenarios.WORK_QUEUE,
                        Scenarios.DELAY_LOAD_5S,
                        Scenarios.DELAY_BACKLOG,
                        Scenarios.DELAY_LIGHT,
                        Scenarios.IDLE);
        beside.forEach(name -> assertThat(script).containsAnyOf("'" + name + "': {", "\n  " + name + ": {"));
    }
}
