package io.queuekit.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.inmemory.ManualClock;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code queuekit.schedules.*}: messages stored at every tick and handled by the queue's listener. */
@RedisServerTest
@Timeout(60)
class SchedulesFromPropertiesTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Order ORDER = new Order("o-1", 1250, Instant.parse("2030-01-01T00:00:00Z"));
    private final RedisServer server;

    SchedulesFromPropertiesTest(RedisServer server) {
        this.server = server;
    }

    /** Records what the schedule stored. */
    static class Ticks {
        final List<Delivery<Order>> deliveries = new CopyOnWriteArrayList<>();
        final List<Headers> headers = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "ticks")
        void handle(Delivery<Order> delivery, Headers headers) {
            deliveries.add(delivery);
            this.headers.add(headers);
        }
    }

    /** Records the ids of an in-memory queue's messages. */
    static class Pings {
        final List<String> ids = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "pings")
        void handle(Delivery<String> delivery) {
            ids.add(delivery.id().value() + " " + delivery.payload());
        }
    }

    @Test
    void aScheduleOnAShortEvery_storesAMessagePerTick_forTheQueuesListener_onRedis() {
        Contexts.on(server)
                .withBean("ticks", Ticks.class)
                .withPropertyValues(
                        "queuekit.key-prefix=" + Contexts.unique("schedules"),
                        "queuekit.queues.ticks.type=delay",
                        "queuekit.schedules.heartbeat.queue=ticks",
                        "queuekit.schedules.heartbeat.every=200ms",
                        "queuekit.schedules.heartbeat.payload="
                                + "{\"id\":\"o-1\",\"cents\":1250,\"placedAt\":\"2030-01-01T00:00:00Z\"}",
                        "queuekit.schedules.heartbeat.headers.source=schedule")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Ticks ticks = context.getBean(Ticks.class);
                    await().atMost(WAIT).until(() -> ticks.deliveries.size() >= 3);

                    assertThat(ticks.deliveries).allSatisfy(d -> {
                        assertThat(d.payload()).isEqualTo(ORDER);
                        assertThat(d.id().value()).startsWith("heartbeat@");
                        // the id names the tick: a whole number of periods since the epoch
                        Instant tick = Instant.parse(d.id().value().substring("heartbeat@".length()));
                        assertThat(tick.toEpochMilli() % 200).isZero();
                    });
                    assertThat(ticks.headers)
                            .allSatisfy(h -> assertThat(h.get("source")).isEqualTo("schedule"));
                    assertThat(ticks.deliveries.stream().map(d -> d.id().value()))
                            .doesNotHaveDuplicates();

                    QueuesEndpoint.QueueView view =
                            new QueuesEndpoint(context.getBean(QueueCatalog.class)).queue("ticks");
                    assertThat(view.schedules()).singleElement().satisfies(s -> {
                        assertThat(s.name()).isEqualTo("heartbeat");
                        assertThat(s.trigger()).isEqualTo("every PT0.2S from 1970-01-01T00:00:00Z");
                        assertThat(s.missed()).isEqualTo("fire-once");
                        assertThat(s.lastRun()).isNotNull();
                        assertThat(s.nextRun()).isAfter(s.lastRun());
                    });
                });
    }

    @Test
    void aCronSchedule_inMemory_firesEachTick_whenTheTestAdvancesTheClock() {
        Contexts.on(server)
                .withBean("pings", Pings.class)
                .withPropertyValues(
                        "queuekit.transport=in-memory",
                        "queuekit.in-memory.clock=manual",
                        "queuekit.queues.pings.type=delay",
                        "queuekit.schedules.hourly.queue=pings",
                        "queuekit.schedules.hourly.cron=0 0 * * * *",
                        "queuekit.schedules.hourly.zone=Europe/Berlin",
                        "queuekit.schedules.hourly.missed=skip",
                        "queuekit.schedules.hourly.payload=ping",
                        "queuekit.schedules.once.queue=pings",
                        "queuekit.schedules.once.at=2030-01-01T00:30:00Z",
                        "queuekit.schedules.once.payload=once",
                        "queuekit.schedules.quarter.queue=pings",
                        "queuekit.schedules.quarter.every=1h",
                        "queuekit.schedules.quarter.from=2029-12-31T23:15:00Z",
                        "queuekit.schedules.quarter.payload=quarter")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    ManualClock clock = context.getBean(ManualClock.class);
                    Pings pings = context.getBean(Pings.class);
                    assertThat(clock.instant()).isEqualTo(ManualClock.DEFAULT_START);

                    clock.advance(Duration.ofMinutes(14));
                    assertThat(pings.ids).isEmpty();
                    clock.advance(Duration.ofMinutes(46));
                    await().atMost(WAIT).until(() -> pings.ids.size() == 3);
                    clock.advance(Duration.ofHours(2));
                    await().atMost(WAIT).until(() -> pings.ids.size() == 7);

                    assertThat(pings.ids)
                            .containsExactlyInAnyOrder(
                                    "quarter@2030-01-01T00:15:00Z quarter",
                                    "once@2030-01-01T00:30:00Z once",
                                    "hourly@2030-01-01T01:00:00Z ping",
                                    "quarter@2030-01-01T01:15:00Z quarter",
                                    "hourly@2030-01-01T02:00:00Z ping",
                                    "quarter@2030-01-01T02:15:00Z quarter",
                                    "hourly@2030-01-01T03:00:00Z ping");
                    QueuesEndpoint.QueueView view =
                            new QueuesEndpoint(context.getBean(QueueCatalog.class)).queue("pings");
                    assertThat(view.schedules())
                            .extracting(QueuesEndpoint.ScheduleView::name)
                            .containsExactly("hourly", "once", "quarter");
                    assertThat(view.schedules().get(1).nextRun()).isNull();
                    assertThat(view.schedules().get(0)).satisfies(s -> {
                        assertThat(s.trigger()).isEqualTo("cron Europe/Berlin 0 0 * * * *");
                        assertThat(s.missed()).isEqualTo("skip");
                        assertThat(s.lastRun()).isEqualTo(Instant.parse("2030-01-01T03:00:00Z"));
                        assertThat(s.nextRun()).isEqualTo(Instant.parse("2030-01-01T04:00:00Z"));
                    });
                });
    }
}
