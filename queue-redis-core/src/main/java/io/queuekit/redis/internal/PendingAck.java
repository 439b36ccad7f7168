package io.queuekit.redis.internal;

import io.queuekit.internal.Receiver;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntConsumer;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.CommandArguments;

/**
 * The ack of a delivery that a managed consumer finished, waiting to travel with its next fetch
 * ({@link io.queuekit.internal.AckingFetch}): sent once, written before the fetch in the same
 * round trip ({@link #with}), made by the fetch's own script ({@link #inside}), or alone where no
 * fetch comes ({@link #ackAlone}), so that it is made whatever becomes of the fetch.
 */
public final class PendingAck implements Receiver.CarriedAck {
    private static final Logger LOG = LoggerFactory.getLogger(PendingAck.class);
    private static final PendingAck NONE =
            new PendingAck(null, List.of(), null, r -> 0, () -> 0, n -> {}, () -> {}, false);

    private final OneRoundTrip trip;
    private final List<byte[]> args;
    private final CommandArguments command;
    private final ToIntFunction<Object> count;
    private final IntSupplier alone;
    private final IntConsumer acked;
    private final Runnable failed;
    private boolean waiting;

    private PendingAck(
            OneRoundTrip trip,
            List<byte[]> args,
            CommandArguments command,
            ToIntFunction<Object> count,
            IntSupplier alone,
            IntConsumer acked,
            Runnable failed,
            boolean waiting) {
        this.trip = trip;
        this.args = args;
        this.command = command;
        this.count = count;
        this.alone = alone;
        this.acked = acked;
        this.failed = failed;
        this.waiting = waiting;
    }

    /** No ack waits: {@link #with} runs the fetch alone. */
    public static PendingAck none() {
        return NONE;
    }

    /**
     * An ack made by {@code script} on {@code args}, whose integer reply (how many were acked) goes
     * to {@code acked}; {@code failed} runs if it could not be made (the delivery may settle
     * again), also when it cannot even be prepared (the queue closed), before the exception. The
     * queue's client must send in one round trip ({@link RedisContext#oneRoundTrip()}).
     */
    public static PendingAck of(
            RedisContext<?> queue, QueueScript script, List<byte[]> args, IntConsumer acked, Runnable failed) {
        return of(
                queue,
                () -> script.command(args),
                raw -> (int) QueueScript.integer(script.reply(raw, args)),
                () -> (int) QueueScript.integer(script.run(args)),
                acked,
                failed);
    }

    /**
     * An ack made by any command: {@code command} written before the fetch, whose reply as Jedis
     * reads it (an error reply is its exception, not thrown) {@code count} turns into how many were
     * acked, throwing if it failed, and may finish the ack with a call of its own; {@code alone}
     * makes the whole ack where no fetch comes. {@code acked} and {@code failed} as for
     * {@link #of(RedisContext, QueueScript, List, IntConsumer, Runnable)}.
     */
    public static PendingAck of(
            RedisContext<?> queue,
            Supplier<CommandArguments> command,
            ToIntFunction<Object> count,
            IntSupplier alone,
            IntConsumer acked,
            Runnable failed) {
        OneRoundTrip trip = queue.oneRoundTrip();
        try {
            if (trip == null) {
                throw new IllegalStateException(queue.label() + ": its client cannot send an ack with a fetch");
            }
            return new PendingAck(trip, List.of(), command.get(), count, alone, acked, failed, true);
        } catch (RuntimeException e) {
            failed.run();
            throw e;
        }
    }

    /**
     * An ack that a fetch script makes itself ({@link #inside}), on any client: {@code script} on
     * {@code args} if it is sent alone instead; {@code acked} and {@code failed} as for {@link #of}.
     */
    public static PendingAck inline(QueueScript script, List<byte[]> args, IntConsumer acked, Runnable failed) {
        return new PendingAck(
                null, args, null, r -> 0, () -> (int) QueueScript.integer(script.run(args)), acked, failed, true);
    }

    /**
     * Runs a fetch whose script makes the ack first: {@code fetch} gets the ack's arguments (none
     * if it no longer waits; one that is not {@link #inline} is sent alone first) and returns its
     * result, of which {@code ackedOf} tells how many the script acked. If the fetch fails, so did
     * the ack: its delivery may settle again.
     */
    public <R> R inside(Function<List<byte[]>, R> fetch, ToIntFunction<R> ackedOf) {
        if (trip != null) {
            ackAlone();
        }
        if (!waiting) {
            return fetch.apply(List.of());
        }
        waiting = false;
        R r;
        try {
            r = fetch.apply(args);
        } catch (RuntimeException e) {
            failed.run();
            throw e;
        }
        acked.accept(ackedOf.applyAsInt(r));
        return r;
    }

    /**
     * Runs a fetch: {@code fetch}, after the ack in the same round trip if it still waits, else
     * {@code alone}. For an ack made by {@link #of} (an {@link #inline} one goes {@link #inside}). Returns the fetch's reply as Jedis reads it: a Redis error in the reply of a
     * fetch sent with the ack is returned, not thrown, for the caller to read as its own call's.
     * If the ack's reply is an error while the fetch's is not, what the fetch took is still
     * returned: the failed ack is logged and its message comes back after its lease, as after
     * any failed ack. If the round trip itself fails, that is thrown.
     *
     * @param what the queue and the fetch, for error messages ({@code "redis-list orders: wait"})
     */
    public Object with(CommandArguments fetch, String what, Supplier<?> alone) {
        if (!waiting) {
            return RedisCalls.call(what, alone);
        }
        waiting = false;
        List<Object> replies;
        try {
            replies = RedisCalls.call(what, () -> trip.run(List.of(command, fetch)));
        } catch (RuntimeException e) {
            failed.run();
            throw e;
        }
        try {
            settled(() -> count.applyAsInt(replies.get(0)));
        } catch (RuntimeException e) {
            // the fetch took something (or found nothing) all the same: hand it on
            LOG.warn("{}: the ack sent with this fetch failed; its message comes back after its lease", what, e);
        }
        return replies.get(1);
    }

    /**
     * As {@link #with}, on a client that sends in one round trip ({@code trip}), with {@code then}
     * written after the fetch: the replies of the fetch and of each of {@code then}, in order, as
     * Jedis reads them (an error reply in its place, not thrown). The ack, if it still waits, goes
     * first, and its reply is handled as {@link #with} handles it.
     */
    public List<Object> with(OneRoundTrip trip, CommandArguments fetch, List<CommandArguments> then, String what) {
        boolean acking = waiting;
        waiting = false;
        List<CommandArguments> commands = new ArrayList<>(2 + then.size());
        if (acking) {
            commands.add(command);
        }
        commands.add(fetch);
        commands.addAll(then);
        List<Object> replies;
        try {
            replies = RedisCalls.call(what, () -> trip.run(commands));
        } catch (RuntimeException e) {
            if (acking) {
                failed.run();
            }
            throw e;
        }
        if (!acking) {
            return replies;
        }
        try {
            settled(() -> count.applyAsInt(replies.get(0)));
        } catch (RuntimeException e) {
            LOG.warn("{}: the ack sent with this fetch failed; its message comes back after its lease", what, e);
        }
        return replies.subList(1, replies.size());
    }

    /** Sends the ack alone, if it still waits: no fetch is coming. */
    @Override
    public void ackAlone() {
        if (!waiting) {
            return;
        }
        waiting = false;
        settled(alone);
    }

    private void settled(IntSupplier reply) {
        int n;
        try {
            n = reply.getAsInt();
        } catch (RuntimeException e) {
            failed.run();
            throw e;
        }
        acked.accept(n);
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
