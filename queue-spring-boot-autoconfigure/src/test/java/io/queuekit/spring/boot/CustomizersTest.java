package io.queuekit.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.MessageQueue;
import io.queuekit.redis.list.RedisListQueue;
import io.queuekit.redis.pubsub.RedisBroadcaster;
import io.queuekit.redis.zset.RedisDelayQueue;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

/** Beans that change the Redis builders and the client the starter makes, called in their order. */
@RedisServerTest
@Timeout(60)
class CustomizersTest {
    private final RedisServer server;

    CustomizersTest(RedisServer server) {
        this.server = server;
    }

    @Configuration(proxyBeanMethods = false)
    static class Customizers {
        final List<String> calls = new CopyOnWriteArrayList<>();
        final String prefix = Contexts.unique("customized");

        @Bean
        @Order(2)
        QueueBuilderCustomizer second() {
            return (queue, builder) ->
                    calls.add("second " + queue + " " + builder.getClass().getName());
        }

        @Bean
        @Order(1)
        QueueBuilderCustomizer first() {
            return (queue, builder) -> {
                calls.add("first " + queue + " " + builder.getClass().getName());
                if (builder instanceof RedisListQueue.Builder<?> list) {
                    list.keyPrefix(prefix);
                }
            };
        }

        @Bean
        @Order(2)
        RedisClientCustomizer clientName() {
            return config -> {
                calls.add("client " + config.getClass().getSimpleName());
                config.clientName("customized-client");
            };
        }

        @Bean
        @Order(1)
        RedisClientCustomizer firstClient() {
            return config -> calls.add("first client");
        }
    }

    @Test
    void queueBuilderCustomizers_runInOrder_onEachBuilder_beforeItIsBuilt() {
        Contexts.on(server)
                .withUserConfiguration(Customizers.class)
                .withPropertyValues(
                        "queuekit.queues.orders.type=list",
                        "queuekit.queues.reminders.type=delay",
                        "queuekit.queues.prices.type=broadcast")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Customizers customizers = context.getBean(Customizers.class);
                    context.getBean("ordersQueue");
                    context.getBean("remindersQueue");
                    context.getBean("pricesBroadcaster");
                    assertThat(customizers.calls)
                            .containsSubsequence(
                                    "first orders " + RedisListQueue.Builder.class.getName(),
                                    "second orders " + RedisListQueue.Builder.class.getName())
                            .containsSubsequence(
                                    "first reminders " + RedisDelayQueue.Builder.class.getName(),
                                    "second reminders " + RedisDelayQueue.Builder.class.getName())
                            .containsSubsequence(
                                    "first prices " + RedisBroadcaster.Builder.class.getName(),
                                    "second prices " + RedisBroadcaster.Builder.class.getName());
                    @SuppressWarnings("unchecked")
                    MessageQueue<String> orders = context.getBean("ordersQueue", MessageQueue.class);
                    orders.send("o-1");
                    try (RedisClient raw = RedisClients.create(server)) {
                        assertThat(raw.keys(customizers.prefix + ":*")).isNotEmpty();
                    }
                });
    }

    @Test
    @SuppressWarnings("deprecation") // sendCommand: the one way to CLIENT GETNAME on a UnifiedJedis
    void redisClientCustomizers_runInOrder_beforeTheClientIsBuilt() {
        Contexts.on(server).withUserConfiguration(Customizers.class).run(context -> {
            assertThat(context).hasNotFailed();
            UnifiedJedis client = context.getBean(UnifiedJedis.class);
            Object name = client.sendCommand(Protocol.Command.CLIENT, "GETNAME");
            assertThat(new String((byte[]) name, StandardCharsets.UTF_8)).isEqualTo("customized-client");
            assertThat(context.getBean(Customizers.class).calls).containsSubsequence("first client", "client Builder");
        });
    }
}
