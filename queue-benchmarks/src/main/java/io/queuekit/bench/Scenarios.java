package io.queuekit.bench;

import static io.queuekit.bench.Impls.INMEMORY_ALO;
import static io.queuekit.bench.Impls.INMEMORY_AMO;
import static io.queuekit.bench.Impls.JEDIS_LIST;
import static io.queuekit.bench.Impls.JEDIS_PUBSUB;
import static io.queuekit.bench.Impls.LIST_ALO;
import static io.queuekit.bench.Impls.LIST_ALO_CLUSTER;
import static io.queuekit.bench.Impls.LIST_ALO_POLL;
import static io.queuekit.bench.Impls.LIST_ALO_SHARDS;
import static io.queuekit.bench.Impls.LIST_AMO;
import static io.queuekit.bench.Impls.PUBSUB;
import static io.queuekit.bench.Impls.REDISSON_DELAYED;
import static io.queuekit.bench.Impls.REDISSON_QUEUE;
import static io.queuekit.bench.Impls.REDISSON_RELIABLE_TOPIC;
import static io.queuekit.bench.Impls.STREAM_TOPIC;
import static io.queuekit.bench.Impls.ZSET;
import static io.queuekit.bench.Impls.ZSET_BATCH;
import static io.queuekit.bench.Impls.ZSET_EACH;
import static io.queuekit.bench.Impls.ZSET_LUA;
import static io.queuekit.bench.Impls.ZSET_POLLING;

import java.util.List;
import java.util.Locale;

/** The scenarios of the benchmark, in the order they run. */
final class Scenarios {
    static final String WORK_QUEUE = "work-queue";
    static final String WORK_QUEUE_BATCH = "work-queue-batch";
    static final String DELAY_LOAD = "delay-load";
    static final String DELAY_LOAD_5S = "delay-load-5s";
    static final String DELAY_BACKLOG = "delay-backlog";
    static final String DELAY_BACKLOG_ONE = "delay-backlog-one";
    static final String DELAY_WAITING_0 = "delay-waiting-0";
    static final String DELAY_WAITING_1M = "delay-waiting-1m";
    static final String DELAY_LIGHT = "delay-light";
    static final String DELAY_SCHEDULE = "delay-schedule";
    static final String IDLE = "idle";
    static final String PUBSUB_FANOUT = "pubsub";
    static final String TOPIC_FANOUT = "topic-fanout";
    static final String IN_MEMORY = "inmemory";
    static final String MEMORY = "memory";
    static final String IN_FLIGHT_1K = "inflight-1k";
    static final String IN_FLIGHT_10K = "inflight-10k";
    static final String IN_FLIGHT_50K = "inflight-50k";
    static final String CLUSTER_SHARDS = "cluster-shards";
    static final String SCRIPT_COST = "script-cost";

    static final List<String> NAMES = List.of(
            WORK_QUEUE,
            WORK_QUEUE_BATCH,
            DELAY_LOAD,
            DELAY_LOAD_5S,
            DELAY_BACKLOG,
            DELAY_BACKLOG_ONE,
            DELAY_WAITING_0,
            DELAY_WAITING_1M,
            DELAY_LIGHT,
            DELAY_SCHEDULE,
            IDLE,
            PUBSUB_FANOUT,
            TOPIC_FANOUT,
            IN_MEMORY,
            MEMORY,
            IN_FLIGHT_1K,
            IN_FLIGHT_10K,
            IN_FLIGHT_50K,
            SCRIPT_COST,
            CLUSTER_SHARDS);

    private static final List<String> QUEUES = List.of(LIST_ALO, LIST_ALO_POLL, LIST_AMO, JEDIS_LIST, REDISSON_QUEUE);
    private static final List<String> DELAYS = List.of(ZSET, REDISSON_DELAYED, ZSET_POLLING, ZSET_LUA);

    private Scenarios() {}

    static List<Scenario> all() {
        BullmqPeer bullmq = new BullmqPeer("node");
        return List.of(
                bullmq.beside(new WorkQueueScenario(
                        WORK_QUEUE,
                        "1 producer, 4 consumers, 200,000 messages of 100 B, sent one per call, consume() with defaults;"
                                + " end-to-end latency; -poll: poll one and ack by hand instead",
                        QUEUES,
                        200_000,
                        4,
                        1)),
                new WorkQueueScenario(
                        WORK_QUEUE_BATCH,
                        "as work-queue, sent 100 per call and fetched up to 100 per round trip",
                        QUEUES,
                        200_000,
                        4,
                        100),
                new DelayScenario(
                        DELAY_LOAD,
                        "100,000 messages due at random over 0-3 s, sent as fast as 1 producer can, 10 consumers; lateness",
                        DELAYS,
                        DelayScenario.Mode.LOAD,
                        100_000,
                        1),
                bullmq.beside(new DelayScenario(
                        DELAY_LOAD_5S,
                        "100,000 messages due at random over 0-5 s, 1 producer, 10 consumers, as the Lua-claim recipe"
                                + " was published; Redis CPU per message",
                        List.of(ZSET, ZSET_LUA),
                        DelayScenario.Mode.LOAD,
                        100_000,
                        1,
                        5_000)),
                bullmq.beside(new DelayScenario(
                        DELAY_BACKLOG,
                        "100,000 messages all due before 10 consumers start; drain rate (queuekit and the batch-claim"
                                + " prototype fetch up to 100 per claim)",
                        List.of(ZSET, REDISSON_DELAYED, ZSET_POLLING, ZSET_LUA, ZSET_BATCH),
                        DelayScenario.Mode.BACKLOG,
                        100_000,
                        100)),
                new DelayScenario(
                        DELAY_BACKLOG_ONE,
                        "as delay-backlog, queuekit with consume() defaults (one per claim while none wait, more while"
                                + " they do)",
                        List.of(ZSET, ZSET_LUA),
                        DelayScenario.Mode.BACKLOG,
                        100_000,
                        1),
                new DelayScenario(
                        DELAY_WAITING_0,
                        "20,000 messages scheduled one per call, due at once, then drained by 10 consumers; producer"
                                + " time, drain rate, Redis CPU per message",
                        List.of(ZSET),
                        DelayScenario.Mode.SCHEDULE_THEN_DRAIN,
                        20_000,
                        1,
                        0,
                        0),
                new DelayScenario(
                        DELAY_WAITING_1M,
                        "as delay-waiting-0, with 1,000,000 messages due in an hour waiting throughout",
                        List.of(ZSET),
                        DelayScenario.Mode.SCHEDULE_THEN_DRAIN,
                        20_000,
                        1,
                        0,
                        1_000_000),
                bullmq.beside(new DelayScenario(
                        DELAY_LIGHT,
                        "2,000 messages, one every 20 ms, each due 50-2000 ms later, 10 consumers; lateness",
                        DELAYS,
                        DelayScenario.Mode.LIGHT,
                        2_000,
                        1)),
                new ScheduleScenario(
                        DELAY_SCHEDULE,
                        "1 producer, 100,000 messages each due at random 0-5 s ahead: scheduleAt one per call vs"
                                + " scheduleEach 100 per call; producer's rate",
                        List.of(ZSET, ZSET_EACH),
                        100_000,
                        100),
                bullmq.beside(new IdleScenario(
                        IDLE,
                        "10 consume() consumers of one queue object, default options, on an empty queue for 60 s"
                                + " (times --scale): Redis round trips and commands a minute",
                        List.of(ZSET, LIST_ALO),
                        60_000)),
                new PubSubScenario(
                        PUBSUB_FANOUT,
                        "1 publisher, 3 subscribers, 200,000 messages; msgs_per_s counts published messages",
                        List.of(PUBSUB, JEDIS_PUBSUB),
                        200_000,
                        3),
                new FanOutScenario(
                        TOPIC_FANOUT,
                        "1 publisher, 3 groups (subscribers) of 1 consumer each, 100,000 messages of 100 B, one per"
                                + " call; every group gets every message; counts and Redis CPU per delivered message"
                                + " (message x group), msgs_per_s counts published messages",
                        List.of(STREAM_TOPIC, PUBSUB, REDISSON_RELIABLE_TOPIC),
                        100_000,
                        3),
                new WorkQueueScenario(
                        IN_MEMORY,
                        "in-memory queue in this JVM, 1 producer, 4 consumers, 1,000,000 messages",
                        List.of(INMEMORY_ALO, INMEMORY_AMO),
                        1_000_000,
                        4,
                        1),
                new MemoryScenario(
                        MEMORY,
                        "Redis used_memory growth per waiting message, 100,000 messages (zset: due in 1 h)",
                        List.of(LIST_ALO, ZSET, REDISSON_DELAYED),
                        100_000),
                inFlight(IN_FLIGHT_1K, 1_000),
                inFlight(IN_FLIGHT_10K, 10_000),
                inFlight(IN_FLIGHT_50K, 50_000),
                new ScriptCostScenario(
                        SCRIPT_COST,
                        "server time of one script call per operation, 2,000 calls each from one thread on an idle"
                                + " server: the delay queue's claim finding nothing, schedule, send, claim of one, ack;"
                                + " the list queue's ack",
                        List.of(ZSET, LIST_ALO),
                        2_000),
                new ClusterScenario(
                        CLUSTER_SHARDS,
                        "a Redis Cluster of 3 masters started for the run, 1 producer, 4 consumers, 100,000 messages of"
                                + " 100 B, one per call: the list queue unsharded vs shards(3); Redis CPU of every master",
                        List.of(LIST_ALO_CLUSTER, LIST_ALO_SHARDS),
                        100_000,
                        4));
    }

    private static Scenario inFlight(String name, int n) {
        return new InFlightScenario(
                name,
                String.format(
                        Locale.ROOT,
                        "%,d messages taken one at a time and held past an upkeep, then acked one by one in random order;"
                                + " Redis CPU per ack over the first %,d acks",
                        n,
                        Math.min(n, InFlightScenario.MEASURED)),
                List.of(LIST_ALO, ZSET),
                n);
    }
}
