package io.queuekit.redis.internal;

import io.queuekit.MessageId;
import java.util.ArrayList;
import java.util.List;

/** The scripts on dead letters, which every Redis queue runs alike, composed with its storage's includes. */
final class DeadLetterScripts {
    private DeadLetterScripts() {}

    /** One dead letter as stored. */
    @SuppressWarnings("ArrayRecordComponent") // a reply's values handed on, never compared or hashed
    record Row(MessageId id, long deadAtMillis, int attempts, String reason, byte[] body) {
        /** Dead letter {@code id} from a reply's four values at {@code at} ({@code dead_letter.lua}). */
        static Row of(MessageId id, List<?> reply, int at) {
            return new Row(
                    id,
                    QueueScript.integer(reply.get(at)),
                    (int) QueueScript.integer(reply.get(at + 1)),
                    QueueScript.str(reply.get(at + 2)),
                    (byte[]) reply.get(at + 3));
        }
    }

    /** {@code dead_list.lua}: the oldest dead letters, read-only. */
    static final class Listing {
        private final QueueScript script;

        Listing(RedisContext<?> queue) {
            this.script = queue.script(
                    "list dead letters",
                    RedisContext.core("dead_list.lua"),
                    "layout",
                    "ready",
                    "claiming",
                    "delayed",
                    "lease",
                    "dead",
                    "att",
                    "reason",
                    "body");
        }

        /** The oldest {@code limit} dead letters, in the order they died. */
        List<Row> oldest(int limit) {
            List<?> r = QueueScript.array(script.run(QueueScript.num(limit)));
            List<Row> out = new ArrayList<>(r.size() / 5);
            for (int i = 0; i < r.size(); i += 5) {
                out.add(Row.of(MessageId.of(QueueScript.str(r.get(i))), r, i + 1));
            }
            return out;
        }
    }

    /** {@code dead_count.lua}: how many dead letters there are, read-only. */
    static final class Count {
        private final QueueScript script;

        Count(RedisContext<?> queue) {
            this.script = queue.script(
                    "count dead letters",
                    RedisContext.core("dead_count.lua"),
                    "layout",
                    "ready",
                    "claiming",
                    "delayed",
                    "lease",
                    "dead");
        }

        long run() {
            return QueueScript.integer(script.run());
        }
    }

    /** {@code dead_find.lua}: one dead letter by id, read-only. */
    static final class Find {
        private final QueueScript script;

        Find(RedisContext<?> queue) {
            this.script = queue.script(
                    "find a dead letter",
                    RedisContext.core("dead_find.lua"),
                    "layout",
                    "ready",
                    "claiming",
                    "delayed",
                    "lease",
                    "dead",
                    "att",
                    "reason",
                    "body");
        }

        /** The dead letter {@code id}, or null if none has that id. */
        Row one(MessageId id) {
            List<?> r = QueueScript.array(script.run(QueueScript.text(id.value())));
            if (r.isEmpty()) {
                return null;
            }
            return Row.of(id, r, 0);
        }
    }

    /** {@code dead_move.lua}: requeue or delete dead letters. */
    static final class Move {
        private final QueueScript script;

        Move(RedisContext<?> queue) {
            this.script = queue.script(
                    "move dead letters",
                    RedisContext.core("dead_move.lua"),
                    "layout",
                    "ready",
                    "claiming",
                    "delayed",
                    "lease",
                    "dead",
                    "reason",
                    "att",
                    "body",
                    "signal");
        }

        /** Requeues ({@code requeue}) or deletes the dead letter {@code id}; true if it was one. */
        boolean one(boolean requeue, MessageId id) {
            return QueueScript.integer(
                            script.run(action(requeue), QueueScript.text("one"), QueueScript.text(id.value())))
                    == 1;
        }

        /** Requeues or deletes up to {@code count} of the oldest dead letters; returns how many. */
        long oldest(boolean requeue, int count) {
            return QueueScript.integer(script.run(action(requeue), QueueScript.text("oldest"), QueueScript.num(count)));
        }

        private static byte[] action(boolean requeue) {
            return QueueScript.text(requeue ? "requeue" : "purge");
        }
    }
}
