package io.queuekit.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs every scenario at a tiny scale against a Redis server of its own, without warm-up, and
 * checks the shape of results.txt and that our at-least-once transports neither lose nor duplicate.
 * Speeds are not asserted.
 */
class BenchSmokeTest {
    private static final String NUM = "-?\\d+\\.\\d{3}";
    private static final Pattern LINE = Pattern.compile(
            "BENCH scenario=(\\S+) impl=(\\S+) run=1 msgs=(\\d+)"
                    + "( scripts_per_msg=\\d+\\.\\d{2} commands_per_msg=(\\d+\\.\\d{2}) round_trips_per_msg=\\d+\\.\\d{2})?"
                    + " msgs_per_s=\\d+ p50_ms=" + NUM + " p99_ms=" + NUM + " max_ms=" + NUM
                    + " dupes=(\\d+) lost=(\\d+)( early=\\d+)?( redis_cpu_us_per_msg=\\d+\\.\\d{2})?"
                    + "( bytes_per_msg=-?\\d+\\.\\d)?( producer_s=\\d+\\.\\d{2})?( server_cpu_shares=\\d\\.\\d{3}(/\\d\\.\\d{3})+)?");
    private static final Set<String> DELAYS = Set.of(
            Scenarios.DELAY_LOAD,
            Scenarios.DELAY_LOAD_5S,
            Scenarios.DELAY_BACKLOG,
            Scenarios.DELAY_BACKLOG_ONE,
            Scenarios.DELAY_WAITING_0,
            Scenarios.DELAY_WAITING_1M,
            Scenarios.DELAY_LIGHT);
    private static final Set<String> PRODUCER_TIMED = Set.of(
            Scenarios.DELAY_LOAD, Scenarios.DELAY_LOAD_5S, Scenarios.DELAY_WAITING_0, Scenarios.DELAY_WAITING_1M);
    private static final Set<String> WORK_QUEUES =
            Set.of(Scenarios.WORK_QUEUE, Scenarios.WORK_QUEUE_BATCH, Scenarios.CLUSTER_SHARDS);
    private static final Set<String> IN_FLIGHT =
            Set.of(Scenarios.IN_FLIGHT_1K, Scenarios.IN_FLIGHT_10K, Scenarios.IN_FLIGHT_50K);
    private static final Set<String> COUNTED = Stream.of(
                    DELAYS,
                    IN_FLIGHT,
                    WORK_QUEUES,
                    Set.of(Scenarios.PUBSUB_FANOUT, Scenarios.TOPIC_FANOUT, Scenarios.DELAY_SCHEDULE, Scenarios.IDLE))
            .flatMap(Set::stream)
            .collect(Collectors.toSet());

    @Test
    @Timeout(120)
    void everyScenario_atTinyScale_writesWellFormedLines_andLosesNothingAtLeastOnce(@TempDir Path dir)
            throws Exception {
        Path out = dir.resolve("results.txt");
        // every implementation but BullMQ, which needs node and npm (BullmqPeerTest covers our side of it)
        Set<String> impls =
                Impls.NAMES.stream().filter(i -> !i.equals(Impls.BULLMQ)).collect(Collectors.toSet());
        BenchConfig config = new BenchConfig(0.005, 0.1, Set.of(), impls, false, 60, out);
        ByteArrayOutputStream log = new ByteArrayOutputStream();

        List<Result> results = Bench.run(config, new PrintStream(log, true, StandardCharsets.UTF_8));

        String text = Files.readString(out);
        List<String> lines = text.lines().filter(l -> l.startsWith("BENCH ")).toList();
        int expected = (int) Scenarios.all().stream()
                .mapToLong(s -> s.impls().stream().filter(impls::contains).count())
                .sum();
        assertThat(lines).as(text).hasSize(expected).hasSameSizeAs(results);
        for (String line : lines) {
            Matcher m = LINE.matcher(line);
            assertThat(m.matches()).as("well-formed: %s", line).isTrue();
            String scenario = m.group(1);
            assertThat(m.group(4) != null)
                    .as("counts exactly on lines of Redis scenarios with a measured window: %s", line)
                    .isEqualTo(COUNTED.contains(scenario) && !Impls.inMemory(m.group(2)));
            if (m.group(4) != null && Impls.atLeastOnce(m.group(2))) {
                assertThat(Double.parseDouble(m.group(5)))
                        .as("commands: %s", line)
                        .isPositive();
            }
            assertThat(m.group(8) != null)
                    .as("early exactly on delay lines: %s", line)
                    .isEqualTo(DELAYS.contains(scenario));
            assertThat(m.group(9) != null)
                    .as("cpu exactly on delay, in-flight, Redis work-queue and topic fan-out lines: %s", line)
                    .isEqualTo(DELAYS.contains(scenario)
                            || IN_FLIGHT.contains(scenario)
                            || WORK_QUEUES.contains(scenario)
                            || scenario.equals(Scenarios.TOPIC_FANOUT));
            assertThat(m.group(10) != null)
                    .as("bytes exactly on memory lines: %s", line)
                    .isEqualTo(scenario.equals(Scenarios.MEMORY));
            assertThat(m.group(11) != null)
                    .as("producer time exactly on delay lines with one producer: %s", line)
                    .isEqualTo(PRODUCER_TIMED.contains(scenario));
            assertThat(m.group(12) != null)
                    .as("server shares exactly on cluster lines: %s", line)
                    .isEqualTo(scenario.equals(Scenarios.CLUSTER_SHARDS));
            if (scenario.equals(Scenarios.IDLE)) {
                assertThat(Long.parseLong(m.group(3)))
                        .as("nothing sent: %s", line)
                        .isZero();
            } else {
                assertThat(Long.parseLong(m.group(3))).as("msgs: %s", line).isPositive();
            }
        }
        for (Result r : results) {
            if (Impls.atLeastOnce(r.impl())) {
                assertThat(r.note()).as("%s %s", r.scenario(), r.impl()).isEmpty();
                assertThat(r.dupes())
                        .as("dupes of %s %s", r.scenario(), r.impl())
                        .isZero();
                assertThat(r.lost()).as("lost by %s %s", r.scenario(), r.impl()).isZero();
            }
        }
        assertThat(text.lines().filter(l -> l.startsWith("TARGET "))).hasSize(34);
        assertThat(text).contains("\nRETIRED (no longer judged):\n");
    }
}
