package io.queuekit.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.MAP;
import static org.awaitility.Awaitility.await;

import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.event.EventListener;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;

/** What the health indicator and the application events tell of the broadcast listeners' subscriptions. */
@Timeout(90)
class BroadcastListenerHealthTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String LISTENER = "pricesListener#price";

    private RedisServer server;

    @BeforeEach
    void start() {
        server = RedisServer.builder().requireProcessControl().start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    static class Listeners {
        final List<String> prices = new CopyOnWriteArrayList<>();
        final List<BroadcastGapEvent> gaps = new CopyOnWriteArrayList<>();

        @BroadcastListener(channel = "prices")
        void price(String price) {
            prices.add(price);
        }

        @EventListener
        void gap(BroadcastGapEvent gap) {
            gaps.add(gap);
        }
    }

    @Test
    void aListener_isReconnecting_whileRedisIsKilled_andSubscribedWithItsGap_afterARestart() {
        Contexts.on(server)
                .withBean("pricesListener", Listeners.class, Listeners::new)
                .withPropertyValues("queuekit.queues.prices.type=broadcast")
                .run(context -> {
                    QueuesHealthIndicator health = context.getBean(QueuesHealthIndicator.class);
                    Listeners listeners = context.getBean(Listeners.class);
                    Map<String, Object> subscribed = listener(health.health(true));
                    assertThat(subscribed)
                            .containsEntry("broadcast", "prices")
                            .containsEntry("state", "subscribed")
                            .containsEntry("reconnects", 0L)
                            .doesNotContainKeys("since", "lastGap");

                    server.kill();
                    await().atMost(WAIT)
                            .until(() -> "reconnecting"
                                    .equals(listener(health.health(true)).get("state")));
                    Health down = health.health(true);
                    assertThat(down.getStatus()).isEqualTo(Status.DOWN); // for the PING, not the listener
                    assertThat(listener(down)).containsKey("since");

                    server.restart();
                    await().atMost(WAIT)
                            .until(() -> "subscribed"
                                    .equals(listener(health.health(true)).get("state")));
                    await().atMost(WAIT)
                            .until(() -> health.health(true).getStatus().equals(Status.UP));
                    Map<String, Object> back = listener(health.health(true));
                    assertThat(back).containsEntry("reconnects", 1L).doesNotContainKey("since");
                    assertThat(back.get("lastGap"))
                            .asInstanceOf(MAP)
                            .containsKeys("lostAt", "resumedAt", "duration", "cause");

                    await().atMost(WAIT).until(() -> !listeners.gaps.isEmpty());
                    BroadcastGapEvent gap = listeners.gaps.get(0);
                    assertThat(gap.broadcast()).isEqualTo("prices");
                    assertThat(gap.channel()).isEqualTo("prices");
                    assertThat(gap.subscription()).isEqualTo(back.get("subscription"));
                    assertThat(gap.duration()).isPositive();
                    assertThat(gap.cause()).isNotNull();
                });
    }

    @Test
    void aReconnectingListener_leavesHealthUp_untilBroadcastDownAfterHasPassed() {
        try (RedisClient admin = RedisClients.create(server)) {
            Contexts.on(server)
                    .withBean("pricesListener", Listeners.class, Listeners::new)
                    .withPropertyValues(
                            "queuekit.queues.prices.type=broadcast", "queuekit.health.broadcast-down-after=2s")
                    .run(context -> {
                        QueuesHealthIndicator health = context.getBean(QueuesHealthIndicator.class);
                        assertThat(health.health(true).getStatus()).isEqualTo(Status.UP);

                        // Redis answers PING but cuts the subscription and refuses a new one
                        channels(admin, "resetchannels");
                        await().atMost(WAIT)
                                .until(() -> "reconnecting"
                                        .equals(listener(health.health(true)).get("state")));
                        await().atMost(WAIT)
                                .until(() -> health.health(true).getStatus().equals(Status.DOWN));
                        assertThat(health.health(true).getDetails()).containsEntry("redis", "PONG");

                        channels(admin, "allchannels");
                        await().atMost(WAIT)
                                .until(() -> health.health(true).getStatus().equals(Status.UP));
                        assertThat(listener(health.health(true))).containsEntry("state", "subscribed");
                    });
        }
    }

    @Test
    void withoutBroadcastDownAfter_aReconnectingListener_leavesHealthUp() {
        try (RedisClient admin = RedisClients.create(server)) {
            Contexts.on(server)
                    .withBean("pricesListener", Listeners.class, Listeners::new)
                    .withPropertyValues("queuekit.queues.prices.type=broadcast")
                    .run(context -> {
                        QueuesHealthIndicator health = context.getBean(QueuesHealthIndicator.class);
                        channels(admin, "resetchannels");
                        await().atMost(WAIT)
                                .until(() -> "reconnecting"
                                        .equals(listener(health.health(true)).get("state")));
                        Health reconnecting = health.health(true);
                        assertThat(reconnecting.getStatus()).isEqualTo(Status.UP);
                        assertThat(listener(reconnecting)).containsKey("since");
                        channels(admin, "allchannels");
                    });
        }
    }

    @Test
    void aNegativeBroadcastDownAfter_failsNamingTheProperty() {
        Contexts.on(server)
                .withPropertyValues("queuekit.health.broadcast-down-after=-1s")
                .run(context -> assertThat(context)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("queuekit.health.broadcast-down-after=PT-1S is refused"));
    }

    /** Grants or revokes the default user's channels: a revoke makes Redis cut its subscriptions. */
    @SuppressWarnings("deprecation") // UnifiedJedis has no ACL command of its own
    private static void channels(RedisClient admin, String rule) {
        admin.sendCommand(Protocol.Command.ACL, "SETUSER", "default", rule);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> listener(Health health) {
        Map<String, Object> all = (Map<String, Object>) health.getDetails().get("broadcastListeners");
        assertThat(all).containsOnlyKeys(LISTENER);
        return (Map<String, Object>) all.get(LISTENER);
    }
}
