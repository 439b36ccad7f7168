package io.queuekit.redis.list;

import static io.queuekit.Semantics.Guarantee.AT_LEAST_ONCE;
import static io.queuekit.Semantics.Guarantee.AT_MOST_ONCE;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.ConsumeOptions;
import io.queuekit.DeadLetter;
import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.QueueStats;
import io.queuekit.Semantics.Guarantee;
import io.queuekit.Subscription;
import io.queuekit.redis.JacksonCodec;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.RedisClient;

/** Bodies that are not what the consumer expects, and messages crossing between the two modes. */
@Timeout(30)
@RedisServerTest
class RedisListQueueMessagesTest {
    private final RedisClient client;

    record Order(int id, String item) {}

    RedisListQueueMessagesTest(RedisClient client) {
        this.client = client;
    }

    @ParameterizedTest
    @EnumSource(Guarantee.class)
    void undecodableBody_isDeadLetteredByConsume_andTheConsumerKeepsServingOthers(Guarantee guarantee) {
        String name = Queues.unique("undecodable");
        try (RedisListQueue<String> raw = Queues.strings(client, name, guarantee);
                RedisListQueue<Order> orders = RedisListQueue.builder(client, name, JacksonCodec.of(Order.class))
                        .guarantee(guarantee)
                        .blockTimeout(Queues.BLOCK)
                        .build()) {
            orders.send(new Order(1, "tea"));
            MessageId bad = raw.send("{not json");
            orders.send(new Order(2, "cake"));

            List<Order> handled = new CopyOnWriteArrayList<>();
            Subscription worker = orders.consume(
                    d -> handled.add(d.payload()),
                    ConsumeOptions.builder().pollTimeout(Duration.ofMillis(100)).build());

            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(handled).containsExactly(new Order(1, "tea"), new Order(2, "cake"));
                assertThat(orders.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));
            });
            assertThat(worker.isActive()).isTrue();
            DeadLetter<Order> dl = orders.deadLetters().list(10).get(0);
            assertThat(dl.id()).isEqualTo(bad);
            assertThat(dl.payload()).isNull();
            assertThat(dl.attempts()).isEqualTo(1);
            assertThat(dl.reason()).startsWith("undecodable: ").contains("Order");
            assertThat(raw.deadLetters().list(1).get(0).payload()).isEqualTo("{not json");
        }
    }

    @ParameterizedTest
    @EnumSource(Guarantee.class)
    void elementPushedByAnotherProgram_isDeadLettered_notHandedToAHandler(Guarantee guarantee) throws Exception {
        String name = Queues.unique("foreign");
        try (RedisListQueue<String> q = Queues.strings(client, name, guarantee)) {
            client.lpush(Queues.key(name, "ready"), "pushed by a textbook producer");
            q.send("real");

            Delivery<String> d = q.poll(5, SECONDS);

            assertThat(d.payload()).isEqualTo("real");
            assertThat(d.ack()).isTrue();
            DeadLetter<String> dl = q.deadLetters().list(10).get(0);
            assertThat(dl.payload()).isEqualTo("pushed by a textbook producer");
            assertThat(dl.reason()).contains("not a queuekit message");
            assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));
        }
    }

    @Test
    void messagesCrossBetweenTheModes_withTheirIdsAndAttempts() throws Exception {
        String name = Queues.unique("switch");
        try (RedisListQueue<String> once = Queues.strings(client, name, AT_MOST_ONCE);
                RedisListQueue<String> leased = Queues.strings(client, name, AT_LEAST_ONCE)) {
            List<MessageId> ids = once.sendAll(List.of("a", "b"));
            MessageId c = leased.send("c");

            Delivery<String> a = leased.poll(5, SECONDS);
            assertThat(a.id()).isEqualTo(ids.get(0));
            assertThat(a.ack()).isTrue();
            assertThat(once.poll(5, SECONDS).id()).isEqualTo(ids.get(1));
            Delivery<String> first = leased.poll(5, SECONDS);
            assertThat(first.id()).isEqualTo(c);
            assertThat(first.retry(Duration.ZERO)).isTrue();
            Delivery<String> second = once.poll(5, SECONDS);

            assertThat(second.id()).isEqualTo(c);
            assertThat(second.payload()).isEqualTo("c");
            assertThat(second.attempt()).isEqualTo(2);
            assertThat(second.enqueuedAt()).isEqualTo(first.enqueuedAt());
            assertThat(leased.stats().total()).isZero();
        }
    }

    @Test
    void retriedMessage_keepsItsIdAndEnqueueTime_andHonoursTheDelay_inBothModes() throws Exception {
        for (Guarantee g : Guarantee.values()) {
            try (RedisListQueue<String> q = Queues.strings(client, Queues.unique("retry"), g)) {
                MessageId id = q.send("x");
                Delivery<String> first = q.poll(5, SECONDS);
                long retried = System.nanoTime();
                assertThat(first.retry(Duration.ofMillis(500))).isTrue();

                Delivery<String> again = q.poll(5, SECONDS);

                assertThat(Duration.ofNanos(System.nanoTime() - retried))
                        .isGreaterThanOrEqualTo(Duration.ofMillis(490));
                assertThat(again.id()).isEqualTo(id);
                assertThat(again.attempt()).isEqualTo(2);
                assertThat(again.enqueuedAt()).isEqualTo(first.enqueuedAt());
                assertThat(again.ack()).isTrue();
            }
        }
    }
}
