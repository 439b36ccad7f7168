package io.queuekit.it;

import static io.queuekit.testing.RedisServerTest.Server.PER_CLASS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.DeadLetter;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.redis.JacksonCodec;
import io.queuekit.redis.internal.RedisKeys;
import io.queuekit.testing.RedisServerTest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.RedisClient;

/**
 * Poison messages: a body the queue's codec cannot decode is dead-lettered at once (no retry can
 * decode it), a message whose handler always throws is dead-lettered with the exception as the
 * reason after the maximum attempts, and the consumer goes on serving every other message.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@RedisServerTest(server = PER_CLASS)
class PoisonMessageTest {
    private static final int MAX_ATTEMPTS = 3;
    private static final int GOOD = 40;
    private static RedisClient client;

    /** The payload type; an order with id {@code "bad"} makes the handler throw. */
    public record Order(String id, int quantity) {}

    @BeforeAll
    static void connect(RedisClient redis) {
        client = redis;
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transport.class)
    void undecodableAndAlwaysFailing_areDeadLetteredWithTheReason_andTheOthersAreServed(Transport transport) {
        String name = "poison-" + transport.name().toLowerCase().replace('_', '-');
        try (MessageQueue<Order> orders = transport.build(
                        client,
                        name,
                        JacksonCodec.of(Order.class),
                        b -> b.maxAttempts(MAX_ATTEMPTS).visibilityTimeout(Duration.ofSeconds(5)));
                MessageQueue<String> raw = transport.build(client, name, Codec.utf8(), b -> b)) {
            List<Order> good = new ArrayList<>();
            for (int i = 0; i < GOOD / 2; i++) {
                good.add(new Order("o" + i, i));
            }
            orders.sendAll(good);
            MessageId notJson = raw.send("{\"id\": \"truncated");
            MessageId wrongShape = raw.send("[\"com.sun.rowset.JdbcRowSetImpl\", {\"dataSourceName\": \"ldap://x\"}]");
            MessageId failing = orders.send(new Order("bad", 1));
            List<Order> more = new ArrayList<>();
            for (int i = GOOD / 2; i < GOOD; i++) {
                more.add(new Order("o" + i, i));
            }
            orders.sendAll(more);

            Map<String, AtomicInteger> handled = new ConcurrentHashMap<>();
            AtomicInteger badAttempts = new AtomicInteger();
            orders.consume(
                    d -> {
                        Order o = d.payload();
                        if (o.id().equals("bad")) {
                            badAttempts.incrementAndGet();
                            throw new IllegalStateException("cannot ship order bad");
                        }
                        handled.computeIfAbsent(o.id(), k -> new AtomicInteger())
                                .incrementAndGet();
                    },
                    ConsumeOptions.builder()
                            .concurrency(2)
                            .backoff(Duration.ofMillis(20), Duration.ofMillis(100))
                            .pollTimeout(Duration.ofMillis(200))
                            .build());

            await().atMost(Duration.ofSeconds(20)).until(() -> orders.stats().dead() == 3 && handled.size() == GOOD);
            await().atMost(Duration.ofSeconds(10)).until(() -> orders.stats().total() == 3);

            Map<MessageId, DeadLetter<Order>> dead = orders.deadLetters().list(10).stream()
                    .collect(Collectors.toMap(DeadLetter::id, Function.identity()));
            System.out.printf(
                    "%s dead letters:%n%s%n",
                    transport,
                    dead.values().stream()
                            .map(d -> "  " + d.id() + " attempts=" + d.attempts() + " reason=" + d.reason())
                            .collect(Collectors.joining("\n")));
            assertThat(dead).containsOnlyKeys(notJson, wrongShape, failing);
            for (MessageId undecodable : List.of(notJson, wrongShape)) {
                DeadLetter<Order> d = dead.get(undecodable);
                assertThat(d.attempts())
                        .as("dead-lettered on the first attempt")
                        .isEqualTo(1);
                assertThat(d.reason()).startsWith("undecodable: ").contains("cannot decode JSON body");
                assertThat(d.payload()).isNull();
            }
            DeadLetter<Order> f = dead.get(failing);
            assertThat(f.attempts()).isEqualTo(MAX_ATTEMPTS);
            assertThat(badAttempts).hasValue(MAX_ATTEMPTS);
            assertThat(f.reason())
                    .isEqualTo("failed " + MAX_ATTEMPTS + " attempt(s); last: "
                            + "java.lang.IllegalStateException: cannot ship order bad");
            assertThat(f.payload()).isEqualTo(new Order("bad", 1));
            assertThat(handled).as("every good order handled").hasSize(GOOD);
        }
    }

    /** A body overwritten in the delay queue's body hash (by another program, or an attacker) is poison too. */
    @Test
    void bodyOverwrittenInRedis_isDeadLetteredAtOnce_andTheConsumerCarriesOn() {
        try (MessageQueue<Order> orders = Transport.ZSET.build(
                client, "poison-hash", JacksonCodec.of(Order.class), b -> b.maxAttempts(MAX_ATTEMPTS))) {
            MessageId victim = orders.send(new Order("v", 1));
            orders.send(new Order("after", 2));
            String bodyKey =
                    RedisKeys.of(RedisKeys.DEFAULT_PREFIX, "poison-hash").key("body");
            String stored = client.hget(bodyKey, victim.value());
            String header = stored.substring(0, stored.indexOf(':') + 1);
            client.hset(
                    bodyKey.getBytes(StandardCharsets.UTF_8),
                    victim.value().getBytes(StandardCharsets.UTF_8),
                    (header + "\u0000\u00ff garbage").getBytes(StandardCharsets.ISO_8859_1));

            Set<String> handled = ConcurrentHashMap.newKeySet();
            orders.consume(
                    d -> handled.add(d.payload().id()),
                    ConsumeOptions.builder().pollTimeout(Duration.ofMillis(200)).build());
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> handled.contains("after") && orders.stats().dead() == 1);
            DeadLetter<Order> d = orders.deadLetters().list(1).get(0);
            assertThat(d.id()).isEqualTo(victim);
            assertThat(d.attempts()).isEqualTo(1);
            assertThat(d.reason()).startsWith("undecodable: ");
            assertThat(handled).containsExactly("after");
        }
    }

    /** An element another program pushed onto a list queue's ready list is dead-lettered, not handed out. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(
            value = Transport.class,
            names = {"LIST_AT_LEAST_ONCE", "LIST_AT_MOST_ONCE"})
    void foreignListElement_isDeadLettered_andTheConsumerCarriesOn(Transport transport) {
        String name = "poison-foreign-" + transport.ordinal();
        try (MessageQueue<Order> orders = transport.build(client, name, JacksonCodec.of(Order.class), b -> b)) {
            orders.send(new Order("before", 1));
            client.lpush(RedisKeys.of(RedisKeys.DEFAULT_PREFIX, name).key("ready"), "not a queuekit element");
            orders.send(new Order("after", 2));
            Set<String> handled = ConcurrentHashMap.newKeySet();
            orders.consume(
                    d -> handled.add(d.payload().id()),
                    ConsumeOptions.builder().pollTimeout(Duration.ofMillis(200)).build());
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> handled.size() == 2 && orders.stats().dead() == 1);
            assertThat(handled).containsExactlyInAnyOrder("before", "after");
            assertThat(orders.stats().total()).isEqualTo(1);
        }
    }
}
