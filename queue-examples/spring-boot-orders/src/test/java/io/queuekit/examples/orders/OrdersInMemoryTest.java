package io.queuekit.examples.orders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.DeadLetter;
import io.queuekit.DelayQueue;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.examples.orders.OrderController.Accepted;
import io.queuekit.examples.orders.OrderController.PlaceOrder;
import io.queuekit.inmemory.ManualClock;
import io.queuekit.spring.boot.test.AutoConfigureInMemoryQueues;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.resttestclient.autoconfigure.AutoConfigureRestTestClient;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.web.servlet.client.RestTestClient;

/** The application with its queues in memory, on a clock the test advances: no Redis, and no waiting a day. */
@SpringBootTest
@AutoConfigureRestTestClient
@AutoConfigureInMemoryQueues
@Timeout(30)
class OrdersInMemoryTest {
    @Autowired
    RestTestClient http;

    @Autowired
    OrderBook book;

    @Autowired
    MessageQueue<Order> orders;

    @Autowired
    DelayQueue<Reminder> reminders;

    @Autowired
    ManualClock clock;

    @Value("${orders.reminder-delay}")
    Duration reminderDelay;

    @Test
    void postedOrder_isHandled_andItsReminderComesOnlyWhenDue() {
        String orderId = place(new PlaceOrder("ada", new BigDecimal("42.50"))).orderId();
        await("order handled").until(() -> book.isHandled(orderId));

        clock.advance(reminderDelay.minusSeconds(1));
        assertThat(reminders.stats().delayed())
                .as("reminders still delayed a second before due")
                .isEqualTo(1);
        assertThat(book.isReminded(orderId)).isFalse();

        clock.advance(Duration.ofSeconds(1));
        await("reminder handled").until(() -> book.isReminded(orderId));
    }

    @Test
    void orderWithoutPositiveTotal_goesToDeadLetters_afterOneAttempt() {
        MessageId id =
                MessageId.of(place(new PlaceOrder("bob", BigDecimal.ZERO)).messageId());

        DeadLetter<Order> dead = await("order dead-lettered")
                .until(() -> orders.deadLetters().find(id), Optional::isPresent)
                .get();
        assertThat(dead.attempts()).isEqualTo(1);
        assertThat(dead.reason()).contains("InvalidOrderException");
        assertThat(book.isHandled(dead.payload().id())).isFalse();
    }

    private Accepted place(PlaceOrder order) {
        return http.post()
                .uri("/orders")
                .body(order)
                .exchange()
                .expectStatus()
                .isAccepted()
                .expectBody(Accepted.class)
                .returnResult()
                .getResponseBody();
    }
}
