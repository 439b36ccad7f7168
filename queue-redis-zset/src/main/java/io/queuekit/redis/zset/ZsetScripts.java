package io.queuekit.redis.zset;

import static io.queuekit.redis.internal.QueueScript.array;
import static io.queuekit.redis.internal.QueueScript.integer;
import static io.queuekit.redis.internal.QueueScript.num;
import static io.queuekit.redis.internal.QueueScript.str;
import static io.queuekit.redis.internal.QueueScript.text;

import io.queuekit.MessageId;
import io.queuekit.QueueStats;
import io.queuekit.redis.internal.QueueScript;
import io.queuekit.redis.internal.RedisContext;
import java.util.ArrayList;
import java.util.List;

/**
 * The delay queue's own scripts ({@code includes/storage.lua} describes the storage), each a typed wrapper that
 * owns the keys it passes and reads the reply. Every one starts with the layout check, so each
 * passes {@code layout}, {@code ready}, {@code claiming} and {@code delayed} first.
 */
final class ZsetScripts {
    private static final String LUA = "/io/queuekit/redis/zset/";
    static final String INCLUDES = LUA + "includes/";

    private ZsetScripts() {}

    private static QueueScript script(RedisContext<?> queue, String what, String file, String... parts) {
        return queue.script(what, LUA + file, parts);
    }

    /** {@code send.lua}: stores messages, ready now or at a due time. */
    static final class Send {
        private final QueueScript script;
        private final byte[] suffix;

        Send(RedisContext<?> queue) {
            script = script(
                            queue,
                            "send",
                            "send.lua",
                            "layout",
                            "ready",
                            "claiming",
                            "delayed",
                            "seq",
                            "body",
                            "signal")
                    .replicated();
            suffix = text(queue.idSuffix());
        }

        /**
         * Stores encoded payloads under generated ids, due {@code millis} after the server's now, or
         * at {@code millis} if {@code absolute}. Returns the ids, in order.
         */
        List<MessageId> storeNew(List<byte[]> payloads, boolean absolute, long millis) {
            List<byte[]> args = new ArrayList<>(payloads.size() + 4);
            args.add(text("new"));
            args.add(due(absolute));
            args.add(num(millis));
            args.add(suffix);
            args.addAll(payloads);
            return ids(script.run(args));
        }

        /**
         * Stores encoded payloads under generated ids, each due at its own time in
         * {@code dueMillis} (epoch ms, one per payload, in order). Returns the ids, in order.
         */
        List<MessageId> storeEach(List<byte[]> payloads, long[] dueMillis) {
            List<byte[]> args = new ArrayList<>(2 * payloads.size() + 4);
            args.add(text("each"));
            args.add(due(true));
            args.add(num(0));
            args.add(suffix);
            for (int i = 0; i < payloads.size(); i++) {
                args.add(num(dueMillis[i]));
                args.add(payloads.get(i));
            }
            return ids(script.run(args));
        }

        /** Stores an encoded payload under {@code id} unless that id is stored; true if stored. */
        boolean storeWithId(MessageId id, byte[] payload, boolean absolute, long millis) {
            return integer(array(script.run(text("ids"), due(absolute), num(millis), suffix, text(id.value()), payload))
                            .get(0))
                    == 1;
        }

        private static byte[] due(boolean absolute) {
            return text(absolute ? "abs" : "rel");
        }

        private static List<MessageId> ids(Object reply) {
            List<?> ids = array(reply);
            List<MessageId> out = new ArrayList<>(ids.size());
            for (Object id : ids) {
                out.add(MessageId.of(str(id)));
            }
            return out;
        }
    }

    /** {@code claim.lua}: acks what it is given, reaps expired leases, then takes due messages into flight. */
    static final class Claim {
        private final QueueScript script;

        Claim(RedisContext<?> queue) {
            script = script(
                    queue,
                    "claim",
                    "claim.lua",
                    "layout",
                    "ready",
                    "claiming",
                    "delayed",
                    "inflight",
                    "lease",
                    "body",
                    "att",
                    "dead",
                    "reason",
                    "seq",
                    "signal",
                    "paused");
        }

        /** One message taken into flight, under the lease of fencing token {@code token}. */
        @SuppressWarnings("ArrayRecordComponent") // a reply's values handed on, never compared or hashed
        record Claimed(MessageId id, int attempt, long token, byte[] body) {}

        /**
         * What one claim did, on the server's clock.
         *
         * @param nextEventMillis when the next message falls due or lease expires; -1 if none
         * @param reaped expired leases returned to the waiting messages
         * @param buried expired leases dead-lettered at their last attempt
         * @param acked messages deleted for the acks sent with the claim
         * @param paused whether the queue is paused: then nothing was reaped or claimed
         */
        record Result(
                long nowMillis,
                long nextEventMillis,
                long reaped,
                long buried,
                int acked,
                boolean paused,
                List<Claimed> claimed) {}

        /**
         * @param watched another consumer of this queue object takes on the next event: a claim that
         *     takes wakes no one for an event still to come
         * @param acks {@link Ack#args} of deliveries to ack before claiming; empty for none
         */
        List<byte[]> args(
                int max, byte[] leaseMillis, byte[] maxAttempts, byte[] retention, boolean watched, List<byte[]> acks) {
            List<byte[]> args = new ArrayList<>(5 + acks.size());
            args.add(num(max));
            args.add(leaseMillis);
            args.add(maxAttempts);
            args.add(retention);
            args.add(watched ? WATCHED : UNWATCHED);
            args.addAll(acks);
            return args;
        }

        private static final byte[] WATCHED = text("1");
        private static final byte[] UNWATCHED = text("0");

        /** The script, to send with an ack ({@link io.queuekit.redis.internal.PendingAck}). */
        QueueScript queueScript() {
            return script;
        }

        /** What the script's reply says. */
        Result parse(Object reply) {
            List<?> r = array(reply);
            List<Claimed> claimed = new ArrayList<>((r.size() - 6) / 4);
            for (int i = 6; i < r.size(); i += 4) {
                claimed.add(new Claimed(
                        MessageId.of(str(r.get(i))), (int) integer(r.get(i + 1)), integer(r.get(i + 2)), (byte[])
                                r.get(i + 3)));
            }
            return new Result(
                    integer(r.get(0)),
                    integer(r.get(1)),
                    integer(r.get(2)),
                    integer(r.get(3)),
                    (int) integer(r.get(4)),
                    integer(r.get(5)) == 1,
                    claimed);
        }
    }

    /** A message's id with the fencing token of the hand-out that settles it. */
    record Lease(MessageId id, long token) {}

    /** {@code ack.lua}: deletes messages their current deliveries finished. */
    static final class Ack {
        private final QueueScript script;

        Ack(RedisContext<?> queue) {
            script = script(
                            queue,
                            "ack",
                            "ack.lua",
                            "layout",
                            "ready",
                            "claiming",
                            "delayed",
                            "inflight",
                            "lease",
                            "body",
                            "att")
                    .replicated();
        }

        /** Returns how many were deleted; one whose hand-out no longer holds the lease is skipped. */
        int run(List<Lease> leases) {
            return (int) integer(script.run(args(leases)));
        }

        List<byte[]> args(List<Lease> leases) {
            List<byte[]> args = new ArrayList<>(leases.size() * 2);
            for (Lease l : leases) {
                args.add(text(l.id().value()));
                args.add(num(l.token()));
            }
            return args;
        }

        /** The script, to send with a fetch ({@link io.queuekit.redis.internal.PendingAck}). */
        QueueScript queueScript() {
            return script;
        }
    }

    /** {@code retry.lua}: makes a message wait again, for a delay. */
    static final class Retry {
        private final QueueScript script;

        Retry(RedisContext<?> queue) {
            script = script(
                            queue,
                            "retry",
                            "retry.lua",
                            "layout",
                            "ready",
                            "claiming",
                            "delayed",
                            "inflight",
                            "lease",
                            "signal")
                    .replicated();
        }

        /** False if that hand-out no longer holds the lease. */
        boolean run(Lease lease, long delayMillis) {
            return integer(script.run(text(lease.id().value()), num(lease.token()), num(delayMillis))) == 1;
        }
    }

    /** {@code renew.lua}: extends a lease. */
    static final class Renew {
        private final QueueScript script;

        Renew(RedisContext<?> queue) {
            script = script(queue, "renew", "renew.lua", "layout", "ready", "claiming", "delayed", "inflight", "lease");
        }

        /** Makes the lease end {@code millis} from the server's now; false if no longer held. */
        boolean run(Lease lease, long millis) {
            return integer(script.run(text(lease.id().value()), num(lease.token()), num(millis))) == 1;
        }
    }

    /** {@code bury.lua}: moves a message in flight to the dead letters. */
    static final class Bury {
        private final QueueScript script;

        Bury(RedisContext<?> queue) {
            script = script(
                            queue,
                            "bury",
                            "bury.lua",
                            "layout",
                            "ready",
                            "claiming",
                            "delayed",
                            "inflight",
                            "lease",
                            "dead",
                            "reason",
                            "body",
                            "att")
                    .replicated();
        }

        /** False if that hand-out no longer holds the lease. */
        boolean run(Lease lease, String reason, byte[] retention) {
            return integer(script.run(text(lease.id().value()), num(lease.token()), text(reason), retention)) == 1;
        }
    }

    /** {@code stats.lua}: the queue's counts, read-only. */
    static final class Stats {
        private final QueueScript script;

        Stats(RedisContext<?> queue) {
            script = script(
                    queue,
                    "stats",
                    "stats.lua",
                    "layout",
                    "ready",
                    "claiming",
                    "delayed",
                    "inflight",
                    "dead",
                    "paused");
        }

        QueueStats run() {
            List<?> r = array(script.run());
            return new QueueStats(
                    integer(r.get(0)), integer(r.get(1)), integer(r.get(2)), integer(r.get(3)), integer(r.get(4)) == 1);
        }
    }

    /** {@code cancel.lua}: deletes a waiting message. */
    static final class Cancel {
        private final QueueScript script;

        Cancel(RedisContext<?> queue) {
            script = script(
                            queue,
                            "cancel",
                            "cancel.lua",
                            "layout",
                            "ready",
                            "claiming",
                            "delayed",
                            "inflight",
                            "lease",
                            "body",
                            "att",
                            "dead",
                            "reason",
                            "signal")
                    .replicated();
        }

        /** True if it waited and is deleted. */
        boolean run(MessageId id, byte[] maxAttempts, byte[] retention) {
            return integer(script.run(text(id.value()), maxAttempts, retention)) == 1;
        }
    }

    /** {@code wake.lua}: hands a wake-up back to the signal list. */
    static final class Wake {
        private final QueueScript script;

        Wake(RedisContext<?> queue) {
            script = script(queue, "wake", "wake.lua", "signal");
        }

        /** Even on a closed queue: a receiver that a close ended hands on what it held. */
        void run(long atMillis) {
            script.runEvenIfClosed(List.of(num(atMillis)));
        }
    }

    /** {@code peek.lua}: the next waiting messages, read-only. */
    static final class Peek {
        private final QueueScript script;

        Peek(RedisContext<?> queue) {
            script = script(queue, "peek", "peek.lua", "layout", "ready", "claiming", "delayed", "body", "att");
        }

        /**
         * One waiting message as stored.
         *
         * @param id the member of the sorted set: an id, unless someone else wrote it
         * @param deliveries how many times it was handed out so far
         * @param body {@code "<enqueued ms>:<payload>"}, or null if it has none
         */
        @SuppressWarnings("ArrayRecordComponent") // a reply's values handed on, never compared or hashed
        record Waiting(String id, long dueMillis, int deliveries, byte[] body) {}

        List<Waiting> run(int max) {
            List<?> r = array(script.run(num(max)));
            List<Waiting> out = new ArrayList<>(r.size() / 4);
            for (int i = 0; i < r.size(); i += 4) {
                out.add(new Waiting(
                        str(r.get(i)), integer(r.get(i + 1)), (int) integer(r.get(i + 2)), (byte[]) r.get(i + 3)));
            }
            return out;
        }
    }
}
