/**
 * In-memory {@link io.queuekit.MessageQueue}, {@link io.queuekit.DelayQueue} and
 * {@link io.queuekit.Broadcaster}, faithful to the semantics of the Redis transports they stand in
 * for, with an injectable clock ({@link io.queuekit.inmemory.ManualClock}) so that leases, retries
 * and delays are tested by advancing time rather than sleeping. Entry points:
 * {@link io.queuekit.inmemory.InMemoryMessageQueue}, {@link io.queuekit.inmemory.InMemoryDelayQueue},
 * {@link io.queuekit.inmemory.InMemoryBroadcaster}.
 */
package io.queuekit.inmemory;
