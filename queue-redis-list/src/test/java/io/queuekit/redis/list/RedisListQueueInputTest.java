package io.queuekit.redis.list;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.Codec;
import io.queuekit.MessageId;
import io.queuekit.QueueStats;
import io.queuekit.Semantics.Guarantee;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.RedisClient;

/** Bad input is refused before anything reaches Redis, with a message that says what is wrong. */
@Timeout(30)
@RedisServerTest
class RedisListQueueInputTest {
    private final RedisClient client;

    RedisListQueueInputTest(RedisClient client) {
        this.client = client;
    }

    /** Every key of the queue with a serialized copy of its value. */
    private Map<String, String> stored(String name) {
        Map<String, String> out = new TreeMap<>();
        for (String key : client.keys(Queues.key(name, "*"))) {
            out.put(key, Arrays.toString(client.dump(key.getBytes())));
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(Guarantee.class)
    void refusedCalls_failClearly_andChangeNothingStored(Guarantee guarantee) throws Exception {
        String name = Queues.unique("input");
        try (RedisListQueue<String> q = RedisListQueue.builder(client, name, Codec.utf8())
                .guarantee(guarantee)
                .maxPayloadBytes(64)
                .build()) {
            q.sendAll(List.of("one", "two"));
            Map<String, String> before = stored(name);
            assertThat(before).isNotEmpty();

            assertThatThrownBy(() -> q.send(null))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessage("payload");
            assertThatThrownBy(() -> q.sendAll(null))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessage("payloads");
            assertThatThrownBy(() -> q.sendAll(Arrays.asList("fine", null)))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessage("payload at index 1 is null");
            assertThatThrownBy(() -> q.send("x".repeat(65)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("65 bytes")
                    .hasMessageContaining("limit of 64");
            assertThatThrownBy(() -> q.sendAll(List.of("fine", "x".repeat(100))))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("at index 1");
            assertThatThrownBy(() -> q.poll(-1, SECONDS)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> q.pollBatch(0, 1, SECONDS)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> q.consume(null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> q.deadLetters().list(0)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> q.deadLetters().requeue(null)).isInstanceOf(NullPointerException.class);
            assertThat(q.deadLetters().requeue(MessageId.of("no-such-id"))).isFalse();

            assertThat(stored(name)).isEqualTo(before);
            assertThat(q.stats()).isEqualTo(new QueueStats(2, 0, 0, 0));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "has space", "a{b}", "{orders}", "brace}", "tab\there", "new\nline", "é", "slash/"})
    void builder_refusesInvalidQueueNames(String name) {
        assertThatThrownBy(() -> RedisListQueue.builder(client, name, Codec.utf8()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("name");
    }

    @Test
    void builder_refusesTooLongAndNullNames() {
        assertThatThrownBy(() -> RedisListQueue.builder(client, "n".repeat(101), Codec.utf8()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("name must be 1 to 100 characters, was 101");
        assertThatThrownBy(() -> RedisListQueue.builder(client, null, Codec.utf8()))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void builder_refusesBadValues_sayingWhatIsWrong_andTouchesNoKey() {
        String name = Queues.unique("builder");
        RedisListQueue.Builder<String> b = RedisListQueue.builder(client, name, Codec.utf8());

        assertThatThrownBy(() -> RedisListQueue.builder(null, name, Codec.utf8()))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("client");
        assertThatThrownBy(() -> RedisListQueue.builder(client, name, null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("codec");
        assertThatThrownBy(() -> b.guarantee(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("guarantee");
        assertThatThrownBy(() -> b.visibilityTimeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("visibility timeout must be 10 ms to 12 h: PT0S");
        assertThatThrownBy(() -> b.visibilityTimeout(Duration.ofHours(13)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("10 ms to 12 h");
        assertThatThrownBy(() -> b.visibilityTimeout(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> b.maxAttempts(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("max attempts must be 1 to 1000: 0");
        assertThatThrownBy(() -> b.deadLetterRetention(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.maxPayloadBytes(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.blockTimeout(Duration.ofMillis(5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("10 ms to 10 s");
        assertThatThrownBy(() -> b.blockTimeout(Duration.ofSeconds(11))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.claimBatch(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.keyPrefix("bad{prefix}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("key prefix:");

        // the refused values left the builder's defaults in place
        try (RedisListQueue<String> q = b.build()) {
            assertThat(q.semantics().guarantee()).isEqualTo(Guarantee.AT_LEAST_ONCE);
            assertThat(client.keys(Queues.key(name, "*"))).isEmpty();
        }
    }
}
