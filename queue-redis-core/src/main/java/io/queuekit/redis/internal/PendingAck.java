package io.queuekit.redis.internal;

import java.util.List;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import redis.clients.jedis.CommandArguments;

/**
 * The ack of a delivery that a managed consumer finished, waiting to travel with its next fetch
 * ({@link io.queuekit.internal.AckingFetch}): sent once, written before the fetch in the same
 * round trip ({@link #with}), or alone where no fetch comes ({@link #ackAlone}), so that it is
 * made whatever becomes of the fetch.
 */
public final class PendingAck {
    private static final PendingAck NONE = new PendingAck(null, null, List.of(), n -> { }, () -> { });

    private final OneRoundTrip trip;
    private final QueueScript script;
    private final IntConsumer acked;
    private final Runnable failed;
    private List<byte[]> args;

    private PendingAck(OneRoundTrip trip, QueueScript script, List<byte[]> args, IntConsumer acked,
            Runnable failed) {
        this.trip = trip;
        this.script = script;
        this.args = args;
        this.acked = acked;
        this.failed = failed;
    }

    /** No ack waits: {@link #with} runs the fetch alone. */
    public static PendingAck none() {
        return NONE;
    }

    /**
     * An ack to send: {@code script} on {@code args}, whose integer reply (how many were acked) goes
     * to {@code acked}; {@code failed} runs if it could not be made (the delivery may settle again).
     * The queue's client must send in one round trip ({@link RedisContext#oneRoundTrip()}).
     */
    public static PendingAck of(RedisContext<?> queue, QueueScript script, List<byte[]> args, IntConsumer acked,
            Runnable failed) {
        OneRoundTrip trip = queue.oneRoundTrip();
        if (trip == null) {
            throw new IllegalStateException(queue.label() + ": its client cannot send an ack with a fetch");
        }
        return new PendingAck(trip, script, args, acked, failed);
    }

    /**
     * Runs a fetch: {@code fetch}, after the ack in the same round trip if it still waits, else
     * {@code alone}. Returns the fetch's reply as Jedis reads it: a Redis error in the reply of a
     * fetch sent with the ack is returned, not thrown, for the caller to read as its own call's.
     * If the ack failed, what the fetch took is still returned to no one: it comes back after its
     * lease, and the ack's failure is thrown.
     *
     * @param what the queue and the fetch, for error messages ({@code "redis-list orders: wait"})
     */
    public Object with(CommandArguments fetch, String what, Supplier<?> alone) {
        if (args.isEmpty()) {
            return RedisCalls.call(what, alone);
        }
        List<byte[]> sent = args;
        args = List.of();
        List<Object> replies;
        try {
            replies = RedisCalls.call(what, () -> trip.run(List.of(script.command(sent), fetch)));
        } catch (RuntimeException e) {
            failed.run();
            throw e;
        }
        settled(() -> script.reply(replies.get(0), sent));
        return replies.get(1);
    }

    /** Sends the ack alone, if it still waits: no fetch is coming. */
    public void ackAlone() {
        if (args.isEmpty()) {
            return;
        }
        List<byte[]> sent = args;
        args = List.of();
        settled(() -> script.run(sent));
    }

    private void settled(Supplier<Object> reply) {
        long n;
        try {
            n = QueueScript.integer(reply.get());
        } catch (RuntimeException e) {
            failed.run();
            throw e;
        }
        acked.accept((int) n);
    }

    /** A fetch's raw reply from {@link #with}, thrown if it is an error, as {@code what} failing. */
    public static Object checked(Object raw, String what) {
        return RedisCalls.call(what, () -> {
            if (raw instanceof RuntimeException e) {
                throw e;
            }
            return raw;
        });
    }
}
