package io.queuekit.examples.orders;

import java.math.BigDecimal;
import java.time.Instant;

/** An order as it travels through the {@code orders} queue, encoded as JSON. */
public record Order(String id, String customer, BigDecimal total, Instant placedAt) {}
