package io.queuekit.examples.orders;

import static org.awaitility.Awaitility.await;

import io.queuekit.examples.orders.OrderController.Accepted;
import io.queuekit.examples.orders.OrderController.PlaceOrder;
import io.queuekit.testing.RedisServer;
import java.math.BigDecimal;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.client.RestTestClient;

/** The application on a real Redis, over HTTP on a random port, as it runs in production. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureRestTestClient
@Timeout(60)
class OrdersOnRedisTest {

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        RedisServer redis = RedisServer.shared();
        registry.add("spring.data.redis.host", redis::host);
        registry.add("spring.data.redis.port", redis::port);
        // keys of their own, as the server may be shared with other tests
        String run = UUID.randomUUID().toString().substring(0, 8);
        registry.add("queuekit.queues.orders.key-prefix", () -> "orders-" + run);
        registry.add("queuekit.queues.reminders.key-prefix", () -> "reminders-" + run);
    }

    @Autowired
    RestTestClient http;

    @Autowired
    OrderBook book;

    @Test
    void postedOrder_isHandled_andHealthAndQueuesEndpointShowTheQueues() {
        String orderId = http.post()
                .uri("/orders")
                .body(new PlaceOrder("ada", new BigDecimal("42.50")))
                .exchange()
                .expectStatus()
                .isAccepted()
                .expectBody(Accepted.class)
                .returnResult()
                .getResponseBody()
                .orderId();
        await("order handled").until(() -> book.isHandled(orderId));

        http.get()
                .uri("/actuator/health")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.components.queuekit.status")
                .isEqualTo("UP")
                .jsonPath("$.components.queuekit.details.redis")
                .isEqualTo("PONG")
                .jsonPath("$.components.queuekit.details.queues.orders.dead")
                .isEqualTo(0)
                .jsonPath("$.components.queuekit.details.queues.reminders.delayed")
                .isEqualTo(1);

        http.get()
                .uri("/actuator/queues")
                .exchange()
                .expectStatus()
                .isOk()
                .expectBody()
                .jsonPath("$.orders.type")
                .isEqualTo("list")
                .jsonPath("$.orders.transport")
                .isEqualTo("redis-list")
                .jsonPath("$.reminders.type")
                .isEqualTo("delay")
                .jsonPath("$.reminders.transport")
                .isEqualTo("redis-zset")
                .jsonPath("$.reminders.stats.delayed")
                .isEqualTo(1);
    }
}
