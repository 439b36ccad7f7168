package io.queuekit.examples.orders;

import io.queuekit.DelayQueue;
import io.queuekit.MessageId;
import io.queuekit.spring.boot.QueueListener;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Handles orders from the {@code orders} queue and reminders from the {@code reminders} delay queue.
 * A method that returns acks its message; one that throws has it tried again after a backoff, up to
 * {@code max-attempts}, except for {@link InvalidOrderException}, which dead-letters it at once.
 */
@Component
class OrderHandler {
    private static final Logger log = LoggerFactory.getLogger(OrderHandler.class);

    private final OrderBook book;
    private final DelayQueue<Reminder> reminders;
    private final Duration reminderDelay;

    OrderHandler(
            OrderBook book, DelayQueue<Reminder> reminders, @Value("${orders.reminder-delay}") Duration reminderDelay) {
        this.book = book;
        this.reminders = reminders;
        this.reminderDelay = reminderDelay;
    }

    @QueueListener(queue = "orders", concurrency = "2", noRetryFor = InvalidOrderException.class)
    void handle(Order order) {
        if (order.total() == null || order.total().signum() <= 0) {
            throw new InvalidOrderException("order " + order.id() + " has a total of " + order.total());
        }
        // delivery is at-least-once: if this order comes again, the id chosen from it keeps its reminder single
        Reminder reminder = new Reminder(order.id(), order.customer());
        reminders.schedule(MessageId.of("reminder-" + order.id()), reminder, reminderDelay);
        book.recordHandled(order);
        log.info("Handled order {} of {} for {}", order.id(), order.total(), order.customer());
    }

    @QueueListener(queue = "reminders")
    void remind(Reminder reminder) {
        book.recordReminded(reminder);
        log.info("Reminded {} of order {}", reminder.customer(), reminder.orderId());
    }
}
