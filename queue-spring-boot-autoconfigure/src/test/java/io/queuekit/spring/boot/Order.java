package io.queuekit.spring.boot;

import java.time.Instant;

/** A payload with a record, a time and a number, as applications send them. */
record Order(String id, long cents, Instant placedAt) {}
