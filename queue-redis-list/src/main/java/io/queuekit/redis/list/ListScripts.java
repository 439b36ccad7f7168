package io.queuekit.redis.list;

import static io.queuekit.redis.internal.QueueScript.array;
import static io.queuekit.redis.internal.QueueScript.bulks;
import static io.queuekit.redis.internal.QueueScript.integer;
import static io.queuekit.redis.internal.QueueScript.num;
import static io.queuekit.redis.internal.QueueScript.text;

import io.queuekit.QueueStats;
import io.queuekit.redis.internal.QueueScript;
import io.queuekit.redis.internal.RedisContext;
import java.util.ArrayList;
import java.util.List;

/**
 * The list queue's own scripts ({@code includes/storage.lua} describes the storage), each a typed wrapper that
 * owns the keys it passes and reads the reply. Those that start with the layout check pass
 * {@code layout}, {@code ready}, {@code claiming}, {@code delayed} and {@code lease} first; those
 * that run on every message (claim, ack, retry, renew) pass only what they touch and check
 * nothing, composed with the one or two shared functions they call.
 */
final class ListScripts {
    private static final String LUA = "/io/queuekit/redis/list/";
    static final String INCLUDES = LUA + "includes/";
    private static final String[] CHECKED = {"layout", "ready", "claiming", "delayed", "lease"};
    private static final String[] REAP = {"inflight", "body", "att", "dead", "reason", "seq", "held"};
    private static final String[] AT_MOST_ONCE_CLAIM = {
        "inflight", "body", "att", "dead", "reason", "seq", "held", "paused"
    };

    private ListScripts() {}

    private static String[] checked(String... more) {
        String[] all = new String[CHECKED.length + more.length];
        System.arraycopy(CHECKED, 0, all, 0, CHECKED.length);
        System.arraycopy(more, 0, all, CHECKED.length, more.length);
        return all;
    }

    /** {@code layout.lua}: checks that the keys are a list queue's, and records the layout. */
    static final class Layout {
        private final QueueScript script;

        Layout(RedisContext<?> queue) {
            script = queue.script("send", LUA + "layout.lua", checked());
        }

        void check() {
            script.run();
        }
    }

    /** {@code bury.lua}: dead-letters a delivery, in either mode. */
    static final class Bury {
        private final QueueScript script;

        Bury(RedisContext<?> queue) {
            script = queue.script(
                            "bury", LUA + "bury.lua", checked("inflight", "body", "att", "dead", "reason", "held"))
                    .replicated();
        }

        /**
         * Stores the message by id and buries it; {@code inFlight} is its element in flight
         * (at-least-once), or empty. False if that element was no longer in flight.
         */
        boolean run(byte[] inFlight, String id, int attempts, byte[] body, String reason, byte[] retention) {
            return integer(script.run(inFlight, text(id), num(attempts), body, text(reason), retention)) == 1;
        }
    }

    /** {@code reap.lua}: the at-least-once upkeep, which leases what was claimed alone and reaps expired leases. */
    static final class Reap {
        private final QueueScript script;

        Reap(RedisContext<?> queue) {
            script = queue.script("reap", LUA + "reap.lua", checked(REAP));
        }

        /**
         * What one reap did, on the server's clock.
         *
         * @param nextEventMillis when the next lease or retry falls due; -1 if none
         * @param returned expired leases returned to 'ready'
         * @param buried expired leases dead-lettered at their last attempt
         * @param left elements still in 'claiming', for the next reap to lease
         */
        record Result(long nowMillis, long nextEventMillis, long returned, long buried, long left) {}

        Reap.Result run(byte[] leaseMillis, byte[] maxAttempts, byte[] retention) {
            List<?> r = array(script.run(leaseMillis, maxAttempts, retention));
            return new Reap.Result(
                    integer(r.get(0)), integer(r.get(1)), integer(r.get(2)), integer(r.get(3)), integer(r.get(4)));
        }
    }

    /** {@code claim_at_most_once.lua}: the at-most-once upkeep and a pop, in one round trip. */
    static final class ClaimAtMostOnce {
        private final QueueScript script;

        ClaimAtMostOnce(RedisContext<?> queue) {
            script = queue.script("claim", LUA + "claim_at_most_once.lua", checked(AT_MOST_ONCE_CLAIM));
        }

        /**
         * What an at-most-once claim took, and when the next retry or lease falls due.
         *
         * @param nextEventMillis as in {@link Reap.Result}
         * @param paused whether the queue is paused: then nothing was popped
         * @param elements the elements popped, oldest first
         */
        record Result(long nowMillis, long nextEventMillis, boolean paused, List<byte[]> elements) {}

        ClaimAtMostOnce.Result run(int max, byte[] leaseMillis, byte[] maxAttempts, byte[] retention) {
            List<?> r = array(script.run(num(max), leaseMillis, maxAttempts, retention));
            List<byte[]> elements = new ArrayList<>(r.size() - 3);
            for (int i = 3; i < r.size(); i++) {
                elements.add((byte[]) r.get(i));
            }
            return new ClaimAtMostOnce.Result(integer(r.get(0)), integer(r.get(1)), integer(r.get(2)) == 1, elements);
        }
    }

    /** {@code peek.lua}: the next elements of 'ready', read-only. */
    static final class Peek {
        private final QueueScript script;

        Peek(RedisContext<?> queue) {
            script = queue.script("peek", LUA + "peek.lua", checked());
        }

        /** Up to {@code max} elements, in the order they will be taken. */
        List<byte[]> run(int max) {
            return bulks(script.run(num(max)));
        }
    }

    /** {@code claim.lua}: a batch from 'ready' straight into flight, leased. */
    static final class Claim {
        private final QueueScript script;

        Claim(RedisContext<?> queue) {
            script = queue.script("claim", LUA + "claim.lua", "ready", "claiming", "held", "inflight", "paused");
        }

        /**
         * What a claim took, how many of the acks sent with it it made, and whether the queue is
         * paused (then it took nothing).
         */
        record Result(int acked, boolean paused, List<byte[]> elements) {}

        /**
         * Up to {@code max} elements, oldest first, leased for {@code leaseMillis} from the server's
         * now, after acking {@code acks} ({@link Ack#args}; empty for none).
         */
        Result run(int max, byte[] leaseMillis, List<byte[]> acks) {
            List<byte[]> args = new ArrayList<>(2 + acks.size());
            args.add(num(max));
            args.add(leaseMillis);
            args.addAll(acks);
            List<?> r = array(script.run(args));
            List<byte[]> elements = new ArrayList<>(r.size() - 2);
            for (int i = 2; i < r.size(); i++) {
                elements.add((byte[]) r.get(i));
            }
            return new Result((int) integer(r.get(0)), integer(r.get(1)) == 1, elements);
        }
    }

    /** {@code ack.lua}: removes deliveries' elements from flight. */
    static final class Ack {
        private final QueueScript script;

        Ack(RedisContext<?> queue) {
            script = queue.script("ack", LUA + "ack.lua", "claiming", "inflight", "held")
                    .replicated();
        }

        /** Returns how many were still in flight. */
        int run(List<Envelope> envelopes) {
            return (int) integer(script.run(args(envelopes)));
        }

        List<byte[]> args(List<Envelope> envelopes) {
            List<byte[]> args = new ArrayList<>(envelopes.size() * 2);
            for (Envelope e : envelopes) {
                args.add(e.element());
                args.add(text(e.id.value()));
            }
            return args;
        }

        /** The script, to send with a fetch ({@link io.queuekit.redis.internal.PendingAck}). */
        QueueScript queueScript() {
            return script;
        }
    }

    /** {@code release.lua}: gives back an element a closing or interrupted receiver took. */
    static final class Release {
        private final QueueScript script;

        Release(RedisContext<?> queue) {
            script = queue.script("release", LUA + "release.lua", "claiming", "inflight", "held", "ready");
        }

        /** Runs even while the queue closes; {@code id} is empty for an element that is not an envelope. */
        void run(byte[] element, byte[] id) {
            script.runEvenIfClosed(List.of(element, id));
        }
    }

    /** {@code renew.lua}: extends the lease of an element in flight. */
    static final class Renew {
        private final QueueScript script;

        Renew(RedisContext<?> queue) {
            script = queue.script("renew", LUA + "renew.lua", "claiming", "inflight", "held");
        }

        /** False if the element is no longer in flight. */
        boolean run(byte[] element, String id, long millis) {
            return integer(script.run(element, text(id), num(millis))) == 1;
        }
    }

    /** {@code retry.lua}: stores a delivery again as its next attempt. */
    static final class Retry {
        private final QueueScript script;

        Retry(RedisContext<?> queue) {
            script = queue.script("retry", LUA + "retry.lua", "claiming", "inflight", "held", "ready", "delayed")
                    .replicated();
        }

        /**
         * Stores {@code next} now, or after {@code delayMillis}; {@code inFlight} is the delivery's
         * element in flight or empty. False if that element was no longer in flight.
         */
        boolean run(byte[] inFlight, String id, byte[] next, long delayMillis) {
            return integer(script.run(inFlight, text(id), next, num(delayMillis))) == 1;
        }
    }

    /** {@code stats.lua}: the list queue's counts, read-only. */
    static final class Stats {
        private final QueueScript script;

        Stats(RedisContext<?> queue) {
            script = queue.script(
                    "stats", LUA + "stats.lua", "ready", "claiming", "delayed", "dead", "inflight", "held", "paused");
        }

        QueueStats run() {
            List<?> r = array(script.run());
            return new QueueStats(
                    integer(r.get(0)), integer(r.get(1)), integer(r.get(2)), integer(r.get(3)), integer(r.get(4)) == 1);
        }
    }
}
