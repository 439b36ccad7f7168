package io.queuekit.it;

import static io.queuekit.testing.RedisServerTest.Server.PER_CLASS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.Codec;
import io.queuekit.TransportException;
import io.queuekit.redis.list.RedisListQueue;
import io.queuekit.redis.zset.RedisDelayQueue;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;

/**
 * A list queue and a delay queue keep their messages in different layouts under the same key
 * names. Opened as the wrong type, in code or by an operator's tool, a queue must fail with a
 * message and leave every key as it was: a script that failed midway would keep its earlier
 * writes, and one that found a key missing would create it in the wrong layout.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
@RedisServerTest(server = PER_CLASS)
class WrongLayoutTest {
    private static RedisClient client;

    @BeforeAll
    static void connect(RedisClient redis) {
        client = redis;
    }

    private static Map<String, String> dump(String name) {
        Map<String, String> keys = new TreeMap<>();
        for (String key : client.keys("queuekit:{" + name + "}:*")) {
            keys.put(key, Base64.getEncoder().encodeToString(client.dump(key)));
        }
        return keys;
    }

    @Test
    void aListQueueHoldingOnlyDeadLetters_openedAsADelayQueue_failsAndChangesNothing() throws Exception {
        String name = "was-a-list";
        try (RedisListQueue<String> list =
                RedisListQueue.builder(client, name, Codec.utf8()).build()) {
            list.send("dies");
            list.poll(5, TimeUnit.SECONDS).deadLetter("for the test");
            assertThat(list.stats().ready()).isZero();
        }
        Map<String, String> before = dump(name);

        try (RedisDelayQueue<String> wrong =
                RedisDelayQueue.builder(client, name, Codec.utf8()).build()) {
            assertThatThrownBy(() -> wrong.deadLetters().requeueAll())
                    .isInstanceOf(TransportException.class)
                    .hasMessageContaining("list queue");
            assertThatThrownBy(() -> wrong.send("x")).isInstanceOf(TransportException.class);
            assertThatThrownBy(() -> wrong.schedule("x", Duration.ofMinutes(1))).isInstanceOf(TransportException.class);
        }

        assertThat(dump(name)).isEqualTo(before);
        try (RedisListQueue<String> list =
                RedisListQueue.builder(client, name, Codec.utf8()).build()) {
            assertThat(list.deadLetters().requeueAll()).isEqualTo(1);
            assertThat(list.poll(5, TimeUnit.SECONDS).payload()).isEqualTo("dies");
        }
    }

    @Test
    void aDelayQueue_openedAsAListQueue_failsAndChangesNothing() throws Exception {
        String name = "was-a-zset";
        try (RedisDelayQueue<String> zset =
                RedisDelayQueue.builder(client, name, Codec.utf8()).build()) {
            zset.schedule("later", Duration.ofHours(1));
            zset.send("dies");
            zset.poll(5, TimeUnit.SECONDS).deadLetter("for the test");
        }
        Map<String, String> before = dump(name);

        try (RedisListQueue<String> wrong =
                RedisListQueue.builder(client, name, Codec.utf8()).build()) {
            assertThatThrownBy(() -> wrong.deadLetters().requeueAll())
                    .isInstanceOf(TransportException.class)
                    .hasMessageContaining("zset queue");
            assertThatThrownBy(() -> wrong.poll(100, TimeUnit.MILLISECONDS)).isInstanceOf(TransportException.class);
            assertThatThrownBy(() -> wrong.send("x")).isInstanceOf(TransportException.class);
        }

        assertThat(dump(name)).isEqualTo(before);
    }

    @Test
    void aDelayQueueWithNothingWaiting_openedAsAListQueue_refusesToSend() throws Exception {
        String name = "zset-with-only-dead-letters";
        try (RedisDelayQueue<String> zset =
                RedisDelayQueue.builder(client, name, Codec.utf8()).build()) {
            zset.send("dies");
            zset.poll(5, TimeUnit.SECONDS).deadLetter("for the test");
            assertThat(zset.stats().ready()).isZero();
        }
        Map<String, String> before = dump(name);

        try (RedisListQueue<String> wrong =
                RedisListQueue.builder(client, name, Codec.utf8()).build()) {
            assertThatThrownBy(() -> wrong.send("x"))
                    .isInstanceOf(TransportException.class)
                    .hasMessageContaining("zset queue");
        }

        assertThat(dump(name)).isEqualTo(before);
        try (RedisDelayQueue<String> zset =
                RedisDelayQueue.builder(client, name, Codec.utf8()).build()) {
            assertThat(zset.send("still works")).isNotNull();
        }
    }
}
