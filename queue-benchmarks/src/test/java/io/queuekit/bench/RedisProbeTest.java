package io.queuekit.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.queuekit.testing.RedisServer;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;

/**
 * What the counts per message count, on real servers of this class's own: the one the benchmark
 * uses (Redis 7.0 here, from PATH) and the oldest supported (the shipped 6.2). A round trip is a
 * read of a client's socket, so a pipeline counts once and so does a blocking call; commands
 * include those a script or a function runs; the probe's own calls are left out.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(60)
class RedisProbeTest {
    private final Map<String, RedisServer> servers = new LinkedHashMap<>();

    @BeforeAll
    void startServers() {
        RedisServer first = RedisServer.builder().requireProcessControl().start();
        servers.put("Redis " + first.version() + " (" + first.source() + ")", first);
        RedisServer oldest =
                RedisServer.builder().source(RedisServer.Source.EMBEDDED).start();
        servers.put("Redis " + oldest.version() + " (" + oldest.source() + ")", oldest);
    }

    @AfterAll
    void stopServers() {
        servers.values().forEach(RedisServer::close);
    }

    Stream<String> servers() {
        return servers.keySet().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void roundTrips_countAPipelineOfAHundredOnce(String server) {
        try (RedisProbe probe = new RedisProbe(uri(server));
                Jedis client = connect(server)) {
            RedisProbe.Snapshot before = probe.commandStats();
            Pipeline p = client.pipelined();
            for (int i = 0; i < 100; i++) {
                p.set("key-" + i, "value");
            }
            p.sync();

            Counts counts =
                    RedisProbe.costs(before, probe.commandStats(), 1, 10).counts();

            assertThat(counts).isEqualTo(new Counts(0, 100, 1));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void roundTrips_countABlockingCallOnce_howeverLongItBlocks(String server) {
        try (RedisProbe probe = new RedisProbe(uri(server));
                Jedis client = connect(server)) {
            RedisProbe.Snapshot before = probe.commandStats();

            assertThat(client.blpop(0.3, "empty-list")).isNull();

            assertThat(RedisProbe.costs(before, probe.commandStats(), 1, 10).counts())
                    .isEqualTo(new Counts(0, 1, 1));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void commands_includeThoseAScriptRuns(String server) {
        try (RedisProbe probe = new RedisProbe(uri(server));
                Jedis client = connect(server)) {
            String sha = client.scriptLoad("redis.call('set', KEYS[1], 'v'); redis.call('incr', KEYS[2]);"
                    + " return redis.call('get', KEYS[1])");
            RedisProbe.Snapshot before = probe.commandStats();

            client.eval("return redis.call('incr', KEYS[1])", 1, "counter");
            client.evalsha(sha, 2, "a", "b");

            RedisProbe.Costs costs = RedisProbe.costs(before, probe.commandStats(), 2, 10);
            assertThat(costs.counts()).as(costs.commands()).isEqualTo(new Counts(1, 3, 1));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void commands_includeThoseAFunctionRuns_onRedis7(String server) {
        assumeTrue(!servers.get(server).version().startsWith("6."), "functions came with Redis 7.0");
        try (RedisProbe probe = new RedisProbe(uri(server));
                Jedis client = connect(server)) {
            client.functionLoadReplace("#!lua name=probetest\n"
                    + "redis.register_function('bump', function(keys, args) return redis.call('incr', keys[1]) end)");
            RedisProbe.Snapshot before = probe.commandStats();

            client.fcall("bump", List.of("counter"), List.of());

            assertThat(RedisProbe.costs(before, probe.commandStats(), 1, 10).counts())
                    .isEqualTo(new Counts(1, 2, 1));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("servers")
    void probesOwnCalls_areLeftOut(String server) {
        try (RedisProbe probe = new RedisProbe(uri(server))) {
            RedisProbe.Snapshot before = probe.commandStats();
            probe.cpuMicros();
            probe.usedMemory();
            probe.flushAll();

            assertThat(RedisProbe.costs(before, probe.commandStats(), 1, 10))
                    .isEqualTo(new RedisProbe.Costs(new Counts(0, 0, 0), ""));
        }
    }

    private String uri(String server) {
        return servers.get(server).uri();
    }

    /** A client already connected, so that its handshake is not counted. */
    private Jedis connect(String server) {
        Jedis client = new Jedis(URI.create(uri(server)));
        client.ping();
        return client;
    }
}
