package io.queuekit.examples.orders;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/** The orders handled and the reminders sent; a real application would keep these in its database. */
@Component
class OrderBook {
    private final Map<String, Order> handled = new ConcurrentHashMap<>();
    private final Set<String> reminded = ConcurrentHashMap.newKeySet();

    void recordHandled(Order order) {
        handled.put(order.id(), order);
    }

    void recordReminded(Reminder reminder) {
        reminded.add(reminder.orderId());
    }

    boolean isHandled(String orderId) {
        return handled.containsKey(orderId);
    }

    boolean isReminded(String orderId) {
        return reminded.contains(orderId);
    }
}
