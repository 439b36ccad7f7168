package io.queuekit.examples.orders;

/** A reminder to follow up on an order, due some time after the order was handled. */
public record Reminder(String orderId, String customer) {}
