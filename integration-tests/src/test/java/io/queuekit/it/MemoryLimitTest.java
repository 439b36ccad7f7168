package io.queuekit.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.Codec;
import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import io.queuekit.TransportException;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;

/**
 * A full Redis with {@code maxmemory-policy noeviction}: sends fail with a {@link TransportException}
 * naming OOM, and every message whose send returned is still there to be delivered. (With an
 * evicting policy Redis would instead drop queue keys silently.)
 */
class MemoryLimitTest {
    private static final String PAYLOAD = "p".repeat(1000);

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transport.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void fullRedisWithNoeviction_refusesSends_andKeepsWhatItAcknowledged(Transport transport) throws Exception {
        try (RedisServer server = RedisServer.builder()
                        .requireProcessControl()
                        .config("maxmemory-policy", "noeviction")
                        .start();
                RedisClient client = RedisClients.builder(server).poolSize(4).build();
                Jedis admin = new Jedis(server.host(), server.port());
                MessageQueue<String> q = transport.build(client, "full", Codec.utf8(), b -> b)) {
            long used = Long.parseLong(admin.info("memory")
                    .lines()
                    .filter(l -> l.startsWith("used_memory:"))
                    .findFirst()
                    .orElseThrow()
                    .substring("used_memory:".length())
                    .trim());
            admin.configSet("maxmemory", String.valueOf(used + 2 * 1024 * 1024));

            Set<String> acknowledged = new HashSet<>();
            TransportException refused = null;
            for (int i = 0; i < 20_000 && refused == null; i++) {
                String p = i + PAYLOAD;
                try {
                    q.send(p);
                    acknowledged.add(p);
                } catch (TransportException e) {
                    refused = e;
                }
            }
            assertThat(refused).as("a send refused once Redis is full").isNotNull();
            assertThat(refused).hasMessageContaining("OOM");
            System.out.printf(
                    "%s: Redis full after %d sends: %s%n", transport, acknowledged.size(), refused.getMessage());

            admin.configSet("maxmemory", "0");
            Set<String> received = new HashSet<>();
            for (Delivery<String> d; (d = q.poll(200, TimeUnit.MILLISECONDS)) != null; ) {
                received.add(d.payload());
                d.ack();
            }
            assertThat(received).isEqualTo(acknowledged);
        }
    }
}
