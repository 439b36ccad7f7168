package io.queuekit;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A work queue: each message sent is handed to one consumer. What a transport promises beyond that
 * (at-least-once or at-most-once, order, retention) is stated by {@link #semantics()} and checked
 * by the contract suite; read it before choosing a transport.
 *
 * <h2>Receiving</h2>
 * Names follow {@link java.util.concurrent.BlockingQueue}: {@link #poll()} returns null at once
 * when nothing is ready, {@link #poll(long, TimeUnit)} waits up to a timeout, {@link #take()}
 * waits as long as it takes. Waiting never spins: callers block in the transport (in Redis,
 * in a blocking command whose timeout is capped so a dead connection is noticed and replaced,
 * provided the client's own socket timeout for blocking commands is set; see the transport).
 * Each receive returns a {@link Delivery} to be settled with {@code ack}, {@code retry} or
 * {@code deadLetter}; on at-least-once transports an unsettled delivery comes back after the
 * queue's visibility timeout. {@link #consume(MessageHandler, ConsumeOptions)} runs named worker
 * threads that do all of this for you.
 *
 * <h2>Nulls, errors, interrupts</h2>
 * Null payloads, collections containing null, and null arguments are refused with
 * {@link NullPointerException}; values out of range with {@link IllegalArgumentException}; a
 * payload larger than the queue's limit with {@link IllegalArgumentException} naming both sizes.
 * Refused calls store nothing. Transport failures are {@link TransportException}s. A blocking call
 * throws {@link InterruptedException} if the thread is interrupted on entry or while waiting (Redis
 * transports notice an interrupt when their current blocking command returns, within about a
 * second); a message it had already taken stays in flight and comes back after its lease.
 *
 * <h2>Pausing</h2>
 * {@link #pause()} stops the queue handing out messages and keeps it storing them, until
 * {@link #resume()}; see {@link #pause()} for what that promises.
 *
 * <h2>Threads and closing</h2>
 * All methods are thread-safe. {@link #close()} is graceful and idempotent: it stops handing out
 * messages (callers blocked in {@code take} or {@code poll} get {@link QueueClosedException}), lets
 * the handlers of consumers started by {@code consume} finish and settle their messages within
 * their {@linkplain ConsumeOptions#shutdownTimeout() shutdown timeout}, and then makes every call
 * throw {@link QueueClosedException}. So nothing a handler finished comes back after a clean close.
 * Stored messages are kept. A client the caller passed to the builder (a Redis connection) is the
 * caller's to close.
 *
 * @param <T> the payload type
 */
public interface MessageQueue<T> extends AutoCloseable {

    /** The queue's name, as given to its builder. */
    String name();

    /**
     * Stores one message for delivery, without headers of its own (a queue with
     * {@linkplain io.queuekit.spi.MessageObservations observations} still adds the trace's).
     *
     * @return the id assigned to the message
     * @throws NullPointerException if {@code payload} is null
     * @throws IllegalArgumentException if the encoded payload exceeds the queue's size limit, or
     *     the headers the queue's observations add exceed {@link Headers}' limits
     */
    default MessageId send(T payload) {
        return send(payload, Headers.empty());
    }

    /**
     * Stores one message with headers, which every delivery of it returns as given
     * ({@link Delivery#headers()}), through retries, dead letters and requeue.
     *
     * @return the id assigned to the message
     * @throws NullPointerException if {@code payload} or {@code headers} is null
     * @throws IllegalArgumentException if the encoded payload exceeds the queue's size limit, or
     *     the headers with those the queue's observations add exceed {@link Headers}' limits
     */
    MessageId send(T payload, Headers headers);

    /**
     * Stores several messages in one round trip, in the order of the collection's iterator. Either
     * all are stored or, if an argument is refused, none; a transport failure midway may leave a
     * prefix stored.
     *
     * @return ids in the same order; empty for an empty collection
     * @throws NullPointerException if the collection or any element is null
     */
    List<MessageId> sendAll(Collection<? extends T> payloads);

    /** The next ready message, or null at once if none is ready. */
    Delivery<T> poll();

    /**
     * The next ready message, waiting up to {@code timeout} for one.
     *
     * @return null if none became ready in time
     * @throws InterruptedException if interrupted before or while waiting
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    Delivery<T> poll(long timeout, TimeUnit unit) throws InterruptedException;

    /**
     * The next ready message, waiting as long as it takes.
     *
     * @throws InterruptedException if interrupted before or while waiting
     * @throws QueueClosedException if the queue is or gets closed
     */
    Delivery<T> take() throws InterruptedException;

    /**
     * Up to {@code maxMessages} ready messages in one round trip, waiting up to {@code timeout}
     * for the first; returns as soon as at least one is ready, without waiting to fill the batch.
     *
     * @return the deliveries in queue order; empty if none became ready in time
     * @throws IllegalArgumentException if {@code maxMessages} is not positive or the timeout is
     *     negative
     */
    List<Delivery<T>> pollBatch(int maxMessages, long timeout, TimeUnit unit) throws InterruptedException;

    /**
     * Acks several deliveries of this queue, in one round trip where the transport can (the Redis
     * queues do): each is settled as by {@link Delivery#ack()}, and one that was already settled
     * or whose lease expired is skipped. Managed consumers with a batch size above one ack each
     * fetched batch this way.
     *
     * @return how many deliveries this call settled
     * @throws NullPointerException if the collection or an element is null
     */
    default int ackAll(Collection<? extends Delivery<T>> deliveries) {
        int acked = 0;
        for (Delivery<T> d : List.copyOf(deliveries)) {
            if (d.ack()) {
                acked++;
            }
        }
        return acked;
    }

    /**
     * Starts worker threads that take messages and run {@code handler} on each: ack on normal
     * return, retry with backoff when it throws (anything, an {@link Error} included),
     * dead-letter after the queue's maximum attempts. While a handler runs, its message's lease is
     * renewed (up to {@link ConsumeOptions#leaseRenewalLimit()}), so a handler slower than the
     * visibility timeout does not see its message handed to another consumer. A worker survives
     * whatever its handler does; only closing the subscription or the queue stops it. Threads are
     * named {@code queuekit-<queue>-consumer-<n>}, with {@code n} counting from 1 across every
     * {@code consume} call on this queue object. Several consumers may run on one queue, in one
     * process or many.
     *
     * @return the running consumer; close it (or the queue) to stop the workers
     */
    Subscription consume(MessageHandler<T> handler, ConsumeOptions options);

    /** {@link #consume(MessageHandler, ConsumeOptions)} with {@link ConsumeOptions#defaults()}. */
    default Subscription consume(MessageHandler<T> handler) {
        return consume(handler, ConsumeOptions.defaults());
    }

    /**
     * Current counts of ready, in-flight, delayed and dead messages, and whether the queue is
     * {@linkplain #pause() paused}. A message whose lease expired
     * counts as ready, on its last attempt too, until the queue hands it out again or dead-letters
     * it (a receive does; so may the list queue's upkeep, which this call runs when due): dead
     * counts the dead letters alone, as {@link DeadLetters#size()} does. On Redis every count is a
     * counting command, whatever the queue's size.
     */
    QueueStats stats();

    /**
     * Pauses the queue: it keeps storing what is sent and hands nothing out until {@link #resume()}.
     * The state is stored with the queue (on Redis, a key beside its messages), so every queue
     * object on the same queue, in every process, sees it: a receive that starts after this call
     * returned hands out nothing, here or anywhere. While paused:
     *
     * <ul>
     *   <li>every form of {@code send} (and of {@code schedule} on a {@link DelayQueue}) stores as
     *       usual, and {@link #stats()} counts what it stored;
     *   <li>nothing is handed out: {@link #poll()} returns null, {@link #poll(long, TimeUnit)} and
     *       {@link #pollBatch} wait out their timeout, {@link #take()} and the workers of
     *       {@link #consume} wait, all without busy polling (a paused queue object re-reads the
     *       stored state about once a second, however many callers wait on it);
     *   <li>deliveries already handed out stay with their consumers, which can ack, retry,
     *       dead-letter and extend them as usual;
     *   <li>a lease that runs out returns its message to ready, and a delayed message or a retry
     *       falls due as usual: both are handed out after {@link #resume()}.
     * </ul>
     *
     * After {@link #resume()}, messages are handed out in the order they would have been without
     * the pause. Idempotent: pausing a paused queue changes nothing. Broadcasters have no pause.
     *
     * @throws QueueClosedException if this queue object is closed
     * @throws TransportException if the state could not be stored (it may have been)
     */
    void pause();

    /**
     * Resumes a paused queue: it hands out again what it kept. Every queue object on the queue sees
     * it: callers waiting in this object at once, those waiting in other objects within about a
     * second. Idempotent: resuming a queue that is not paused changes nothing.
     *
     * @throws QueueClosedException if this queue object is closed
     * @throws TransportException if the state could not be stored (it may have been)
     */
    void resume();

    /**
     * Whether the queue is paused, as stored now (on Redis, one round trip), whichever queue object
     * paused it.
     *
     * @throws QueueClosedException if this queue object is closed
     */
    boolean isPaused();

    /** What this transport promises; constant for the life of the queue. */
    Semantics semantics();

    /** The queue's dead letters, to list, requeue or purge. */
    DeadLetters<T> deadLetters();

    /**
     * Closes gracefully: stops handing out messages and wakes blocked callers, waits for running
     * handlers to finish and settle (each consumer's {@link ConsumeOptions#shutdownTimeout()}),
     * then refuses every call. Stored messages stay. Idempotent.
     */
    @Override
    void close();
}
