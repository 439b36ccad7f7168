package io.queuekit.redis.list;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.QueueClosedException;
import io.queuekit.QueueStats;
import io.queuekit.Semantics.Guarantee;
import io.queuekit.redis.JacksonCodec;
import io.queuekit.redis.WaitingMessage;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.RedisClient;

/** {@link RedisListQueue#peek}: the next ready messages, oldest first, without taking them. */
@Timeout(30)
class RedisListQueuePeekTest {
    private static final RedisClient CLIENT = RedisClients.create(RedisServer.shared());

    record Order(int id, String item) {}

    @AfterAll
    static void closeClient() {
        CLIENT.close();
    }

    @ParameterizedTest
    @EnumSource(Guarantee.class)
    void peek_showsReadyMessages_oldestFirst_withoutTakingThem(Guarantee guarantee) throws Exception {
        try (RedisListQueue<String> q = Queues.strings(CLIENT, Queues.unique("peek"), guarantee)) {
            Instant before = Instant.now().minusSeconds(1);
            List<MessageId> ids = q.sendAll(List.of("a", "b", "c"));

            List<WaitingMessage<String>> next = q.peek(2);

            assertThat(next).extracting(WaitingMessage::id).containsExactly(ids.get(0), ids.get(1));
            assertThat(next).extracting(WaitingMessage::payload).containsExactly("a", "b");
            assertThat(next).allSatisfy(m -> {
                assertThat(m.attempt()).isEqualTo(1);
                assertThat(m.enqueuedAt())
                        .isAfter(before)
                        .isBefore(Instant.now().plusSeconds(1));
                assertThat(m.dueAt()).isNull();
            });
            assertThat(q.peek(10)).hasSize(3);
            assertThat(q.stats()).isEqualTo(new QueueStats(3, 0, 0, 0));
            assertThat(q.poll(5, SECONDS).id()).isEqualTo(ids.get(0));
        }
    }

    @ParameterizedTest
    @EnumSource(Guarantee.class)
    void peek_showsARetriedMessage_asItsNextAttempt_behindThoseWaiting(Guarantee guarantee) throws Exception {
        try (RedisListQueue<String> q = Queues.strings(CLIENT, Queues.unique("peek-retry"), guarantee)) {
            q.sendAll(List.of("a", "b"));
            Delivery<String> a = q.poll(5, SECONDS);
            assertThat(a.retry(Duration.ZERO)).isTrue();

            List<WaitingMessage<String>> next = q.peek(10);

            assertThat(next).extracting(WaitingMessage::payload).containsExactly("b", "a");
            assertThat(next.get(1).id()).isEqualTo(a.id());
            assertThat(next.get(1).attempt()).isEqualTo(2);
            assertThat(next.get(1).enqueuedAt()).isEqualTo(a.enqueuedAt());
        }
    }

    @Test
    void peek_showsAnElementPushedByAnotherProgram_asItIs_withoutAnId() {
        String name = Queues.unique("peek-foreign");
        try (RedisListQueue<String> q = Queues.strings(CLIENT, name, Guarantee.AT_LEAST_ONCE)) {
            CLIENT.lpush(Queues.key(name, "ready"), "pushed by a textbook producer");
            MessageId mine = q.send("mine");

            List<WaitingMessage<String>> next = q.peek(10);

            assertThat(next.get(0))
                    .isEqualTo(new WaitingMessage<String>(null, 0, null, null, "pushed by a textbook producer"));
            assertThat(next.get(1).id()).isEqualTo(mine);
        }
    }

    @Test
    void peek_showsAPayloadItsCodecCannotDecode_asNull() {
        String name = Queues.unique("peek-undecodable");
        try (RedisListQueue<String> raw = Queues.strings(CLIENT, name, Guarantee.AT_LEAST_ONCE);
                RedisListQueue<Order> orders = RedisListQueue.builder(CLIENT, name, JacksonCodec.of(Order.class))
                        .build()) {
            MessageId bad = raw.send("{not json");
            orders.send(new Order(1, "tea"));

            List<WaitingMessage<Order>> next = orders.peek(10);

            assertThat(next.get(0).id()).isEqualTo(bad);
            assertThat(next.get(0).payload()).isNull();
            assertThat(next.get(1).payload()).isEqualTo(new Order(1, "tea"));
        }
    }

    @Test
    void peek_refusesABadCount_aDelayQueuesKeys_andAClosedQueue() {
        String name = Queues.unique("peek-refused");
        RedisListQueue<String> q = Queues.strings(CLIENT, name, Guarantee.AT_LEAST_ONCE);
        assertThat(q.peek(10)).isEmpty();
        assertThatThrownBy(() -> q.peek(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0");
        assertThatThrownBy(() -> q.peek(10_001)).isInstanceOf(IllegalArgumentException.class);
        CLIENT.zadd(Queues.key(name, "ready"), 1, "@1");
        assertThatThrownBy(() -> q.peek(1)).hasMessageContaining("not the list of a list queue");
        q.close();
        assertThatThrownBy(() -> q.peek(1)).isInstanceOf(QueueClosedException.class);
    }
}
