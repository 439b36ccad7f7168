package io.queuekit.redis.stream;

import static io.queuekit.redis.internal.QueueScript.array;
import static io.queuekit.redis.internal.QueueScript.integer;
import static io.queuekit.redis.internal.QueueScript.num;
import static io.queuekit.redis.internal.QueueScript.str;
import static io.queuekit.redis.internal.QueueScript.text;

import io.queuekit.MessageId;
import io.queuekit.redis.internal.QueueScript;
import io.queuekit.redis.internal.RedisContext;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The stream topic's scripts ({@code includes/storage.lua} describes the storage), each a typed
 * wrapper that owns the keys it passes and reads the reply. A group's scripts run on the group's
 * context, whose {@code ready} is the topic's stream; the topic's on the topic's.
 */
final class StreamScripts {
    private static final String LUA = "/io/queuekit/redis/stream/";
    static final String INCLUDES = LUA + "includes/";

    private StreamScripts() {}

    static QueueScript script(RedisContext<?> context, String what, String file, String... parts) {
        return context.script(what, LUA + file, parts);
    }

    /** {@code publish.lua}: appends messages to the stream. */
    static final class Publish {
        private final QueueScript script;

        Publish(RedisContext<?> topic) {
            script = script(topic, "publish", "publish.lua", "layout", "ready", "delayed", "counts", "missed")
                    .replicated();
        }

        /**
         * What one publish stored: how many groups the topic has, each entry's stream id, and how
         * many entries the hard cap removed before a group had acked them (once per such group).
         */
        record Published(long groups, long missed, List<String> streamIds) {
            /** The message ids of the entries, as a stream topic generates them. */
            List<MessageId> messageIds() {
                List<MessageId> out = new ArrayList<>(streamIds.size());
                for (String sid : streamIds) {
                    out.add(MessageId.of(MessageId.GENERATED_MARK + sid));
                }
                return out;
            }
        }

        Published run(long hardCap, List<byte[]> sections) {
            List<byte[]> args = new ArrayList<>(sections.size() + 1);
            args.add(num(hardCap));
            args.addAll(sections);
            List<?> r = array(script.run(args));
            List<String> ids = new ArrayList<>(r.size() - 2);
            for (int i = 2; i < r.size(); i++) {
                ids.add(str(r.get(i)));
            }
            return new Published(integer(r.get(0)), integer(r.get(1)), ids);
        }
    }

    /** {@code groups.lua}: the names of the topic's groups. */
    static final class Groups {
        private final QueueScript script;

        Groups(RedisContext<?> topic) {
            script = script(topic, "list groups", "groups.lua", "layout", "ready", "delayed");
        }

        List<String> run() {
            List<?> r = array(script.run());
            List<String> out = new ArrayList<>(r.size());
            r.forEach(n -> out.add(str(n)));
            return out;
        }
    }

    /** Where a group starts or resumes: a stream id, and what {@code read_from.lua} counts from it. */
    record Start(String streamId, String kind) {}

    /** {@code create.lua}: creates a group unless it exists. */
    static final class Create {
        private final QueueScript script;

        Create(RedisContext<?> group) {
            script = script(
                            group,
                            "create the group",
                            "create.lua",
                            "layout",
                            "ready",
                            "delayed",
                            "counts",
                            "subs",
                            "missed")
                    .replicated();
        }

        /** True if it created the group, false if it existed. */
        boolean run(String group, Start start) {
            return integer(script.run(text(group), text(start.streamId()), text(start.kind()))) == 1;
        }
    }

    /** {@code replay.lua}: moves where a group reads. */
    static final class Replay {
        private final QueueScript script;

        Replay(RedisContext<?> group) {
            script = script(group, "replay", "replay.lua", "layout", "ready", "delayed", "counts")
                    .replicated();
        }

        /** False if the group does not exist. */
        boolean run(String group, Start start) {
            return integer(script.run(text(group), text(start.streamId()), text(start.kind()))) == 1;
        }
    }

    /** {@code beat.lua}: renews subscriptions' heartbeats and finds the groups whose beat stopped. */
    static final class Beat {
        private final QueueScript script;

        Beat(RedisContext<?> topic) {
            script = script(
                            topic,
                            "renew the subscriptions' heartbeats",
                            "beat.lua",
                            "layout",
                            "ready",
                            "delayed",
                            "subs",
                            "counts")
                    .replicated();
        }

        /** The cutoff it used (server ms), and at most {@code limit} groups whose beat is older. */
        record Expired(long cutoffMillis, List<String> groups) {}

        Expired run(long expiryMillis, int limit, Collection<String> renew) {
            List<byte[]> args = new ArrayList<>(2 + renew.size());
            args.add(num(expiryMillis));
            args.add(num(limit));
            renew.forEach(g -> args.add(text(g)));
            List<?> r = array(script.run(args));
            List<String> groups = new ArrayList<>(r.size() - 1);
            for (int i = 1; i < r.size(); i++) {
                groups.add(str(r.get(i)));
            }
            return new Expired(integer(r.get(0)), groups);
        }
    }

    /** {@code claim.lua}: acks what it is given, then takes due retries, expired leases and new entries. */
    static final class Claim {
        private final QueueScript script;

        Claim(RedisContext<?> group) {
            script = script(
                    group,
                    "claim",
                    "claim.lua",
                    "layout",
                    "ready",
                    "delayed",
                    "inflight",
                    "dead",
                    "reason",
                    "att",
                    "body",
                    "paused",
                    "counts");
        }

        /** One entry handed out to this consumer. */
        @SuppressWarnings("ArrayRecordComponent") // a reply's values handed on, never compared or hashed
        record Claimed(MessageId id, int attempt, String streamId, byte[] section, long enqueuedMillis) {}

        /**
         * What one claim did, on the server's clock.
         *
         * @param nextEventMillis when a retry falls due or a lease expires; -1 if none
         * @param lastStreamId the stream's last entry when the claim ran ({@code 0-0} if empty)
         */
        record Result(
                long nowMillis,
                long nextEventMillis,
                long reaped,
                long buried,
                int acked,
                boolean paused,
                String lastStreamId,
                List<Claimed> claimed) {}

        /** The script, to send with an ack ({@link io.queuekit.redis.internal.PendingAck}). */
        QueueScript queueScript() {
            return script;
        }

        List<byte[]> args(
                byte[] group,
                byte[] consumer,
                int max,
                byte[] leaseMillis,
                byte[] maxAttempts,
                byte[] retention,
                List<byte[]> acks) {
            List<byte[]> args = new ArrayList<>(6 + acks.size());
            args.add(group);
            args.add(consumer);
            args.add(num(max));
            args.add(leaseMillis);
            args.add(maxAttempts);
            args.add(retention);
            args.addAll(acks);
            return args;
        }

        Result parse(Object reply) {
            List<?> r = array(reply);
            List<Claimed> claimed = new ArrayList<>((r.size() - 7) / 5);
            for (int i = 7; i < r.size(); i += 5) {
                claimed.add(new Claimed(
                        MessageId.of(str(r.get(i))),
                        (int) integer(r.get(i + 1)),
                        str(r.get(i + 2)),
                        (byte[]) r.get(i + 3),
                        integer(r.get(i + 4))));
            }
            return new Result(
                    integer(r.get(0)),
                    integer(r.get(1)),
                    integer(r.get(2)),
                    integer(r.get(3)),
                    (int) integer(r.get(4)),
                    integer(r.get(5)) == 1,
                    str(r.get(6)),
                    claimed);
        }
    }

    /** A hand-out: the entry's stream id and its delivery count in the group when it was claimed. */
    record Lease(String streamId, int count) {}

    /** {@code ack.lua}: acks hand-outs that still hold their entries. */
    static final class Ack {
        private final QueueScript script;

        Ack(RedisContext<?> group) {
            script = script(group, "ack", "ack.lua", "layout", "ready", "delayed", "inflight")
                    .replicated();
        }

        int run(byte[] group, byte[] consumer, List<Lease> leases) {
            return (int) integer(script.run(args(group, consumer, leases)));
        }

        /** The script's arguments, which the claim script takes after its own to ack first. */
        List<byte[]> args(byte[] group, byte[] consumer, List<Lease> leases) {
            List<byte[]> args = new ArrayList<>(2 + 2 * leases.size());
            args.add(group);
            args.add(consumer);
            for (Lease l : leases) {
                args.add(text(l.streamId()));
                args.add(num(l.count()));
            }
            return args;
        }

        /** The script, to send alone where no claim takes the ack ({@link io.queuekit.redis.internal.PendingAck}). */
        QueueScript queueScript() {
            return script;
        }
    }

    /** {@code retry.lua}: makes a hand-out wait for a delay. */
    static final class Retry {
        private final QueueScript script;

        Retry(RedisContext<?> group) {
            script = script(group, "retry", "retry.lua", "layout", "ready", "delayed", "inflight")
                    .replicated();
        }

        boolean run(byte[] group, byte[] consumer, Lease l, long delayMillis) {
            return integer(script.run(group, consumer, text(l.streamId()), num(l.count()), num(delayMillis))) == 1;
        }
    }

    /** {@code renew.lua}: extends a lease. */
    static final class Renew {
        private final QueueScript script;

        Renew(RedisContext<?> group) {
            script = script(group, "renew", "renew.lua", "layout", "ready", "delayed", "inflight");
        }

        boolean run(byte[] group, byte[] consumer, Lease l, long millis) {
            return integer(script.run(group, consumer, text(l.streamId()), num(l.count()), num(millis))) == 1;
        }
    }

    /** {@code bury.lua}: dead-letters a hand-out. */
    static final class Bury {
        private final QueueScript script;

        Bury(RedisContext<?> group) {
            script = script(
                            group,
                            "bury",
                            "bury.lua",
                            "layout",
                            "ready",
                            "delayed",
                            "inflight",
                            "dead",
                            "reason",
                            "att",
                            "body")
                    .replicated();
        }

        boolean run(
                byte[] group, byte[] consumer, Lease l, MessageId id, String reason, byte[] retention, byte[] body) {
            return integer(script.run(
                            group,
                            consumer,
                            text(l.streamId()),
                            num(l.count()),
                            text(id.value()),
                            text(reason),
                            retention,
                            body))
                    == 1;
        }
    }

    /** {@code info.lua}: a group's counts, read-only. */
    static final class Info {
        private final QueueScript script;

        Info(RedisContext<?> group) {
            script = script(
                    group,
                    "read the group's counts",
                    "info.lua",
                    "layout",
                    "ready",
                    "delayed",
                    "inflight",
                    "dead",
                    "paused",
                    "counts",
                    "missed");
        }

        /**
         * @param lag entries the group has not read, -1 if unknown
         * @param readyAgain retries that fell due and leases that expired
         * @param inFlight leases that have not expired
         */
        record Counts(
                boolean exists,
                long lag,
                long readyAgain,
                long inFlight,
                long delayed,
                long dead,
                boolean paused,
                long missed) {}

        Counts run(byte[] group) {
            List<?> r = array(script.run(group));
            return new Counts(
                    integer(r.get(0)) == 1,
                    integer(r.get(1)),
                    integer(r.get(2)),
                    integer(r.get(3)),
                    integer(r.get(4)),
                    integer(r.get(5)),
                    integer(r.get(6)) == 1,
                    integer(r.get(7)));
        }
    }

    /** {@code trim.lua}: one bounded pass of soft retention. */
    static final class Trim {
        private final QueueScript script;

        Trim(RedisContext<?> topic) {
            script = script(topic, "trim", "trim.lua", "layout", "ready", "delayed", "counts", "missed");
        }

        /**
         * What one pass did: how many entries it removed, and how many of them subscriptions had
         * not had yet (once per such subscription, each counted in its {@code missed}).
         */
        record Trimmed(long removed, long missed) {}

        Trimmed run(long maxLength, long maxAgeMillis, int limit) {
            List<?> r = array(script.run(num(maxLength), num(maxAgeMillis), num(limit)));
            return new Trimmed(integer(r.get(0)), integer(r.get(1)));
        }
    }

    /** {@code leave.lua}: a consumer that holds nothing leaves its group. */
    static final class Leave {
        private final QueueScript script;

        Leave(RedisContext<?> group) {
            script = script(group, "leave the group", "leave.lua", "layout", "ready", "delayed");
        }

        /** Even on a closed group object: it runs as the object closes. */
        void run(byte[] group, byte[] consumer) {
            script.runEvenIfClosed(List.of(group, consumer));
        }
    }
}
