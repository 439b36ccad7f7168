package io.queuekit.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.Codec;
import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import redis.clients.jedis.RedisClient;
import tools.jackson.databind.json.JsonMapper;

/** The codec of a queue named by {@code codec}, and the JSON mapper of the payloads. */
@RedisServerTest
@Timeout(60)
class CodecsTest {
    private static final Order ORDER = new Order("o-1", 1250, Instant.parse("2026-12-01T10:00:00Z"));
    private final RedisServer server;

    CodecsTest(RedisServer server) {
        this.server = server;
    }

    /** Orders as {@code id;cents;placedAt}, counting its calls. */
    static final class OrderText implements Codec<Order> {
        final AtomicInteger encoded = new AtomicInteger();
        final AtomicInteger decoded = new AtomicInteger();

        @Override
        public byte[] encode(Order o) {
            encoded.incrementAndGet();
            return (o.id() + ";" + o.cents() + ";" + o.placedAt()).getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public Order decode(byte[] bytes) {
            decoded.incrementAndGet();
            String[] f = new String(bytes, StandardCharsets.UTF_8).split(";");
            return new Order(f[0], Long.parseLong(f[1]), Instant.parse(f[2]));
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Codecs {
        @Bean
        OrderText orderText() {
            return new OrderText();
        }

        @Bean
        Codec<Integer> numbers() {
            return new Codec<>() {
                @Override
                public byte[] encode(Integer n) {
                    return n.toString().getBytes(StandardCharsets.UTF_8);
                }

                @Override
                public Integer decode(byte[] bytes) {
                    return Integer.valueOf(new String(bytes, StandardCharsets.UTF_8));
                }
            };
        }

        @Bean
        String notACodec() {
            return "text";
        }
    }

    @Test
    void theCodecProperty_namesTheBeanThatEncodesTheQueue_onRedisAndInMemory() {
        for (String transport : List.of("redis", "in-memory")) {
            String prefix = Contexts.unique("codec");
            Contexts.on(server)
                    .withUserConfiguration(Codecs.class)
                    .withPropertyValues(
                            "queuekit.transport=" + transport,
                            "queuekit.queues.orders.payload-type=" + Order.class.getName(),
                            "queuekit.queues.orders.key-prefix=" + prefix,
                            "queuekit.queues.orders.codec=orderText")
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        @SuppressWarnings("unchecked")
                        MessageQueue<Order> orders = context.getBean("ordersQueue", MessageQueue.class);
                        OrderText codec = context.getBean(OrderText.class);
                        orders.send(ORDER);
                        Delivery<Order> got = orders.poll(5, TimeUnit.SECONDS);
                        assertThat(got.payload()).isEqualTo(ORDER);
                        got.ack();
                        assertThat(codec.encoded).hasValue(1);
                        assertThat(codec.decoded).hasPositiveValue();
                    });
        }
    }

    @Test
    void aCodecThatIsNoBean_noCodec_orForAnotherPayloadType_failsNamingTheProperty() {
        String[] orders = {"queuekit.queues.orders.payload-type=" + Order.class.getName()};
        Contexts.on(server)
                .withUserConfiguration(Codecs.class)
                .withPropertyValues(orders)
                .withPropertyValues("queuekit.queues.orders.codec=orderTxt")
                .run(ConfigurationErrorsTest.failsWith(
                        "queuekit.queues.orders.codec=orderTxt names no bean", "orderText", "numbers"));
        Contexts.on(server)
                .withUserConfiguration(Codecs.class)
                .withPropertyValues(orders)
                .withPropertyValues("queuekit.queues.orders.codec=notACodec")
                .run(ConfigurationErrorsTest.failsWith(
                        "queuekit.queues.orders.codec=notACodec names a bean of type class java.lang.String"));
        Contexts.on(server)
                .withUserConfiguration(Codecs.class)
                .withPropertyValues(orders)
                .withPropertyValues("queuekit.queues.orders.codec=numbers")
                .run(ConfigurationErrorsTest.failsWith(
                        "queuekit.queues.orders.codec=numbers names a codec of another payload type",
                        Order.class.getName()));
        Contexts.on(server)
                .withPropertyValues("queuekit.queues.orders.codek=numbers")
                .run(ConfigurationErrorsTest.failsWith("did you mean queuekit.queues.orders.codec?"));
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnMapper {
        @Bean(defaultCandidate = false)
        JsonMapper queuekitJsonMapper() {
            return JsonMapper.builder().build();
        }
    }

    @Test
    void aJsonMapperNamedQueuekitJsonMapper_writesThePayloads_whateverSpringJacksonSays() {
        String prefix = Contexts.unique("mapper");
        Contexts.on(server)
                .withUserConfiguration(OwnMapper.class)
                .withPropertyValues(
                        "spring.jackson.property-naming-strategy=SNAKE_CASE",
                        "queuekit.queues.orders.payload-type=" + Order.class.getName(),
                        "queuekit.queues.orders.key-prefix=" + prefix)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    // the application's own mapper is still Boot's, with its settings
                    assertThat(context.getBean(JsonMapper.class).writeValueAsString(ORDER))
                            .contains("placed_at");
                    @SuppressWarnings("unchecked")
                    MessageQueue<Order> orders = context.getBean("ordersQueue", MessageQueue.class);
                    orders.send(ORDER);
                    assertThat(storedText(prefix)).contains("placedAt").doesNotContain("placed_at");
                });
        // without it, the application's mapper writes them
        String other = Contexts.unique("mapper");
        Contexts.on(server)
                .withPropertyValues(
                        "spring.jackson.property-naming-strategy=SNAKE_CASE",
                        "queuekit.queues.orders.payload-type=" + Order.class.getName(),
                        "queuekit.queues.orders.key-prefix=" + other)
                .run(context -> {
                    @SuppressWarnings("unchecked")
                    MessageQueue<Order> orders = context.getBean("ordersQueue", MessageQueue.class);
                    orders.send(ORDER);
                    assertThat(storedText(other)).contains("placed_at");
                });
    }

    /** Every string, list element and hash value stored under {@code prefix}, joined. */
    private String storedText(String prefix) {
        List<String> values = new ArrayList<>();
        try (RedisClient raw = RedisClients.create(server)) {
            for (String key : raw.keys(prefix + ":*")) {
                switch (raw.type(key)) {
                    case "string" -> values.add(raw.get(key));
                    case "list" -> values.addAll(raw.lrange(key, 0, -1));
                    case "hash" -> values.addAll(raw.hvals(key));
                    default -> {}
                }
            }
        }
        return String.join("\n", values);
    }
}
