package io.queuekit.redis.stream;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.GroupInfo;
import io.queuekit.Subscription;
import io.queuekit.testing.RedisServerTest;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;

/** A subscription whose group is deleted under it ends, said in the log, instead of spinning or going quiet. */
@Timeout(value = 60, unit = SECONDS)
@RedisServerTest
class StreamSubscriptionTest {
    private final RedisClient client;

    StreamSubscriptionTest(RedisClient client) {
        this.client = client;
    }

    private RedisStreamTopic<String> topic(String name) {
        return RedisStreamTopic.builder(client, name, Codec.utf8())
                .blockTimeout(Duration.ofMillis(500))
                .build();
    }

    private static String subscriptionGroup(RedisStreamTopic<String> t) {
        return t.groups().stream()
                .filter(GroupInfo::subscription)
                .map(GroupInfo::name)
                .findFirst()
                .orElseThrow();
    }

    @Test
    void groupDeletedThroughItsOwnTopicObject_endsTheSubscription() {
        try (RedisStreamTopic<String> t = topic("sub-test-" + UUID.randomUUID())) {
            List<String> got = new CopyOnWriteArrayList<>();
            Subscription s = t.subscribe(got::add);
            t.publish("before");
            await().atMost(Duration.ofSeconds(10)).until(() -> got.contains("before"));

            assertThat(t.deleteGroup(subscriptionGroup(t))).isTrue();

            await().atMost(Duration.ofSeconds(10)).until(() -> !s.isActive());
            assertThat(t.groups()).isEmpty();
        }
    }

    @Test
    void groupDeletedByAnotherProcess_endsTheSubscription() {
        String name = "sub-test-" + UUID.randomUUID();
        try (RedisStreamTopic<String> t = topic(name);
                RedisStreamTopic<String> other = topic(name)) {
            Subscription s = t.subscribe(m -> {});

            assertThat(other.deleteGroup(subscriptionGroup(other))).isTrue();

            await().atMost(Duration.ofSeconds(10)).until(() -> !s.isActive());
            assertThat(t.groups()).as("not recreated").isEmpty();
        }
    }

    private RedisStreamTopic<String> quickBeats(String name) {
        RedisStreamTopic<String> t = topic(name);
        t.heartbeats.every(Duration.ofMillis(100), Duration.ofSeconds(1));
        return t;
    }

    @Test
    void aSubscriptionWhoseProcessStoppedRenewing_hasItsGroupReclaimedByAPublishOfAnotherObject() {
        String name = "sub-test-" + UUID.randomUUID();
        try (RedisStreamTopic<String> dying = quickBeats(name);
                RedisStreamTopic<String> other = quickBeats(name)) {
            Subscription abandoned = dying.subscribe(m -> {});
            String group = subscriptionGroup(other);
            other.group("durable").close();
            dying.heartbeats.close(); // its beats stop, as when its process dies: the object is never closed

            await().atMost(Duration.ofSeconds(15))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        other.publish("tick");
                        return other.groups().stream().noneMatch(GroupInfo::subscription);
                    });

            assertThat(other.groups()).extracting(GroupInfo::name).containsExactly("durable");
            assertThat(client.zcard("queuekit:{" + name + "}:subs"))
                    .as("its heartbeat went with it")
                    .isZero();
            assertThat(client.exists("queuekit:{" + name + "}:g:" + group + ":inflight"))
                    .isFalse();
            await().atMost(Duration.ofSeconds(10)).until(() -> !abandoned.isActive());
        }
    }

    @Test
    void aLiveSubscriptionWithAListenerSlowerThanTheExpiry_keepsItsGroup() throws Exception {
        String name = "sub-test-" + UUID.randomUUID();
        try (RedisStreamTopic<String> t = quickBeats(name);
                RedisStreamTopic<String> other = quickBeats(name)) {
            CountDownLatch inListener = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            List<String> got = new CopyOnWriteArrayList<>();
            Subscription s = t.subscribe(m -> {
                got.add(m);
                if (m.equals("slow")) {
                    inListener.countDown();
                    release.await();
                }
            });
            t.publish("slow");
            assertThat(inListener.await(10, SECONDS)).isTrue();

            long until = System.nanoTime() + Duration.ofSeconds(3).toNanos(); // three expiries, reclaim passes running
            await().atMost(Duration.ofSeconds(15))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> {
                        other.publish("tick");
                        return System.nanoTime() > until;
                    });

            assertThat(other.groups()).anyMatch(GroupInfo::subscription);
            release.countDown();
            t.publish("after");
            await().atMost(Duration.ofSeconds(10)).until(() -> got.contains("after"));
            assertThat(s.isActive()).isTrue();
            s.close();
            assertThat(other.groups()).noneMatch(GroupInfo::subscription);
        }
    }

    /** A topic object whose subscription came and went, then dropped without close(). */
    private WeakReference<RedisStreamTopic<String>> droppedAfterASubscription(String name) {
        RedisStreamTopic<String> t = quickBeats(name);
        t.subscribe(m -> {}).close();
        return new WeakReference<>(t);
    }

    private static boolean heartbeatThreadRuns(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(th -> th.getName().equals("queuekit-" + name + "-heartbeat") && th.isAlive());
    }

    @Test
    void aTopicObjectDroppedWithoutClose_isCollected_andItsHeartbeatThreadStops() {
        String name = "sub-test-" + UUID.randomUUID();
        WeakReference<RedisStreamTopic<String>> dropped = droppedAfterASubscription(name);
        assertThat(heartbeatThreadRuns(name)).as("started by the subscription").isTrue();

        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    System.gc();
                    return dropped.get() == null;
                });
        await().atMost(Duration.ofSeconds(10)).until(() -> !heartbeatThreadRuns(name));
    }
}
