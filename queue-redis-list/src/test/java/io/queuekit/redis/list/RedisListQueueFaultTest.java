package io.queuekit.redis.list;

import static io.queuekit.Semantics.Guarantee.AT_LEAST_ONCE;
import static io.queuekit.Semantics.Guarantee.AT_MOST_ONCE;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.QueueStats;
import io.queuekit.TransportException;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.args.ListDirection;

/** Consumers that vanish mid-delivery: what each mode keeps and what it loses. */
@Timeout(30)
@RedisServerTest
class RedisListQueueFaultTest {
    private final RedisServer server;
    private final RedisClient client;

    RedisListQueueFaultTest(RedisServer server, RedisClient client) {
        this.server = server;
        this.client = client;
    }

    @Test
    void consumerThatDisappearsWithoutAcking_hasItsMessagesRedelivered_asSecondAttempts() throws Exception {
        String name = Queues.unique("vanishing");
        List<MessageId> sent;
        List<Delivery<String>> taken = new ArrayList<>();
        try (RedisClient own = RedisClients.create(server);
                RedisListQueue<String> doomed = Queues.strings(own, name, AT_LEAST_ONCE)) {
            sent = doomed.sendAll(List.of("a", "b", "c"));
            for (int i = 0; i < 3; i++) {
                taken.add(doomed.poll(5, SECONDS));
            }
            assertThat(taken).doesNotContainNull();
        }
        // its queue and its client are closed: that consumer is gone, having acked nothing

        try (RedisListQueue<String> survivor = Queues.strings(client, name, AT_LEAST_ONCE)) {
            assertThat(survivor.stats()).isEqualTo(new QueueStats(0, 3, 0, 0));
            assertThat(survivor.poll()).as("redelivered while the leases hold").isNull();

            List<Delivery<String>> again = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                again.add(survivor.poll(10, SECONDS));
            }

            assertThat(again).doesNotContainNull();
            assertThat(again).extracting(Delivery::id).containsExactlyInAnyOrderElementsOf(sent);
            assertThat(again).extracting(Delivery::payload).containsExactlyInAnyOrder("a", "b", "c");
            assertThat(again).extracting(Delivery::attempt).containsOnly(2);
            for (Delivery<String> d : again) {
                assertThat(d.ack()).isTrue();
            }
            assertThat(survivor.stats().total()).isZero();
        }
    }

    @Test
    void consumerThatDiesRightAfterItsBlmove_losesNothing() throws Exception {
        String name = Queues.unique("orphan");
        try (RedisListQueue<String> q = Queues.strings(client, name, AT_LEAST_ONCE)) {
            MessageId id = q.send("orphan");

            // what a consumer's take is, done by hand by a consumer that then dies
            try (RedisClient own = RedisClients.create(server)) {
                byte[] moved = own.blmove(
                        Queues.key(name, "ready").getBytes(),
                        Queues.key(name, "claiming").getBytes(),
                        ListDirection.RIGHT,
                        ListDirection.LEFT,
                        1.0);
                assertThat(moved).isNotNull();
            }

            assertThat(q.stats()).as("in flight, not lost").isEqualTo(new QueueStats(0, 1, 0, 0));
            assertThat(q.poll()).isNull();
            Delivery<String> d = q.poll(10, SECONDS);
            assertThat(d).isNotNull();
            assertThat(d.id()).isEqualTo(id);
            assertThat(d.payload()).isEqualTo("orphan");
            assertThat(d.attempt()).isEqualTo(2);
            assertThat(d.ack()).isTrue();
            assertThat(q.stats().total()).isZero();
        }
    }

    @Test
    void atMostOnce_aRetryThatFailedOnTheTransport_isNotRetriedIntoASecondCopy() throws Exception {
        String name = Queues.unique("retry-failed");
        RedisClient own = RedisClients.create(server);
        try (RedisListQueue<String> q = Queues.strings(own, name, AT_MOST_ONCE)) {
            q.send("once");
            Delivery<String> d = q.poll(5, SECONDS);
            own.close(); // the retry's reply is lost: whether it stored the message is unknown

            assertThatThrownBy(() -> d.retry(Duration.ZERO)).isInstanceOf(TransportException.class);

            // trying again could store a second copy: at most once, the delivery counts as settled
            assertThat(d.retry(Duration.ZERO)).isFalse();
            assertThat(d.deadLetter("no")).isFalse();
        }
    }

    @Test
    void atMostOnce_aConsumerThatDiesAfterThePop_losesTheMessage() throws Exception {
        String name = Queues.unique("lost");
        try (RedisClient own = RedisClients.create(server);
                RedisListQueue<String> doomed = Queues.strings(own, name, AT_MOST_ONCE)) {
            doomed.send("gone");
            assertThat(doomed.poll(5, SECONDS)).isNotNull();
        }

        try (RedisListQueue<String> survivor = Queues.strings(client, name, AT_MOST_ONCE)) {
            // well past what an at-least-once queue with these settings would take to redeliver
            assertThat(survivor.poll(3, SECONDS)).isNull();
            assertThat(survivor.stats().total()).isZero();
            assertThat(survivor.deadLetters().size()).isZero();
        }
    }
}
