package io.queuekit;

import java.time.Instant;

/**
 * A message in a queue's dead letters.
 *
 * @param id the message's id
 * @param payload the decoded payload, or null when the stored body could not be decoded (the
 *     reason then says so)
 * @param attempts how many times it was delivered
 * @param reason why it was dead-lettered
 * @param deadAt when it was dead-lettered, on the transport's clock
 * @param <T> the payload type
 */
public record DeadLetter<T>(MessageId id, T payload, int attempts, String reason, Instant deadAt) {}
