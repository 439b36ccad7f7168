package io.queuekit.examples.orders;

import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.UUID;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** Takes an order and queues it: the caller gets 202 Accepted, the handler does the work. */
@RestController
class OrderController {
    private final MessageQueue<Order> orders;

    OrderController(MessageQueue<Order> orders) {
        this.orders = orders;
    }

    record PlaceOrder(String customer, BigDecimal total) {}

    record Accepted(String orderId, String messageId) {}

    @PostMapping("/orders")
    ResponseEntity<Accepted> place(@RequestBody PlaceOrder request) {
        Order order = new Order(UUID.randomUUID().toString(), request.customer(), request.total(), Instant.now());
        MessageId id = orders.send(order);
        return ResponseEntity.accepted().body(new Accepted(order.id(), id.value()));
    }
}
