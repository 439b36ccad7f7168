package io.queuekit;

/**
 * One named group of a {@link Topic}, as a {@link MessageQueue}: each message published to the topic
 * after the group's start is handed to one of the group's consumers, at least once, with the
 * receiving, settling, leases, retries, dead letters, pause and closing rules of a message queue.
 * Other groups of the topic receive their own copies and settle them on their own.
 *
 * <ul>
 *   <li>{@link #name()} is the group's name; {@link #topic()} the topic's.</li>
 *   <li>{@link #send(Object)} publishes to the topic: every group receives the message, this one
 *       included. A message this group dead-letters and {@link DeadLetters#requeue requeues} comes
 *       back to this group only.</li>
 *   <li>{@link #stats()}: {@code ready} counts the messages published that the group has not been
 *       handed yet (its lag) and redeliveries that fell due.</li>
 *   <li>{@link #semantics()} describes one group: at least once, in publish order, kept while no
 *       one consumes, no fan-out (each message to one of the group's consumers); the topic's
 *       {@link Topic#semantics()} states the fan-out across groups.</li>
 *   <li>{@link #close()} closes this object; the group stays stored with what it has not acked
 *       ({@link Topic#deleteGroup(String)} removes it).</li>
 * </ul>
 *
 * @param <T> the payload type
 */
public interface ConsumerGroup<T> extends MessageQueue<T> {

    /** The name of the topic this group reads. */
    String topic();

    /**
     * Moves where the group reads next: the messages from {@code position} on, as far as the topic
     * still retains them, are handed to the group again, those it acked included. Deliveries in
     * flight stay in flight.
     *
     * @throws NullPointerException if {@code position} is null
     * @throws QueueClosedException if this object is closed
     */
    void replayFrom(Position position);

    /** The group's counts as stored now. */
    GroupInfo info();
}
