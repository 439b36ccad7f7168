package io.queuekit.redis.stream;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.GroupInfo;
import io.queuekit.Subscription;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
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
}
