package io.queuekit.redis.stream;

import static io.queuekit.redis.internal.QueueScript.array;
import static io.queuekit.redis.internal.QueueScript.integer;
import static io.queuekit.redis.internal.QueueScript.num;
import static io.queuekit.redis.internal.QueueScript.text;

import io.queuekit.QueueException;
import io.queuekit.redis.internal.QueueScript;
import io.queuekit.redis.internal.RedisContext;
import java.util.ArrayList;
import java.util.List;

/**
 * The scripts a topic object runs on a group it only inspects or deletes, one per shard, and the
 * order in which a group is created and deleted across shards, so that a {@code group(name)} and a
 * {@code deleteGroup(name)} of two processes leave the group on every shard or on none (the
 * reasoning is in {@code delete.lua}'s header).
 */
final class GroupAdmin {
    /** Rounds of creation a group opened while deletions of it keep finishing gets. */
    static final int CREATE_ROUNDS = 3;

    final List<StreamScripts.Info> info = new ArrayList<>();
    final List<Delete> delete = new ArrayList<>();
    /** For tests, which interleave a creation with deletions. */
    final List<Creation> create = new ArrayList<>();

    GroupAdmin(RedisContext<?> group) {
        for (RedisContext<?> shard : group.shards()) {
            info.add(new StreamScripts.Info(shard));
            delete.add(new Delete(shard));
            create.add(new StreamScripts.Create(shard)::run);
        }
    }

    /** {@code create.lua} on one shard: true if it created the group, false if it existed. */
    @FunctionalInterface
    interface Creation {
        boolean run(String group, StreamScripts.Start start);
    }

    /**
     * Deletes the group; true if it existed. Unsharded, in steps of {@code delete.lua}. Sharded, in
     * three phases: marks it as being deleted on every shard in shard order, deletes it on every
     * shard keeping the marks, then removes the marks in reverse order.
     */
    boolean delete(String group) {
        if (delete.size() == 1) {
            return delete.get(0).run(group);
        }
        for (Delete d : delete) {
            d.mark(group);
        }
        boolean existed = false;
        for (Delete d : delete) {
            existed |= d.keepingMark(group);
        }
        for (int i = delete.size() - 1; i >= 0; i--) {
            delete.get(i).unmark(group);
        }
        return existed;
    }

    /**
     * Creates the group where it does not exist, on each shard in shard order; a shard where it is
     * being deleted refuses, and so does this. Sharded, shard 0 is visited again at the end: a
     * group created there again was destroyed meanwhile by a deletion that began after this began
     * and ended before this ended, which may have missed later shards, so this goes round again.
     */
    static void create(List<? extends Creation> shards, String group, List<StreamScripts.Start> starts) {
        if (shards.size() == 1) {
            shards.get(0).run(group, starts.get(0));
            return;
        }
        for (int round = 0; round < CREATE_ROUNDS; round++) {
            for (int i = 0; i < shards.size(); i++) {
                shards.get(i).run(group, starts.get(i));
            }
            if (!shards.get(0).run(group, starts.get(0))) {
                return; // still there: on every shard, or deleted by a deletion that marked them all
            }
        }
        throw new QueueException("consumer group " + group + " was deleted while it was being created, " + CREATE_ROUNDS
                + " times: call group(name) again");
    }

    /** {@code delete.lua}: deletes a group and its keys, in bounded steps. */
    static final class Delete {
        /** Most pending entries one step acks. */
        static final int STEP = 1000;

        private final QueueScript script;

        Delete(RedisContext<?> group) {
            script = StreamScripts.script(
                            group,
                            "delete the group",
                            "delete.lua",
                            "layout",
                            "ready",
                            "delayed",
                            "inflight",
                            "dead",
                            "reason",
                            "att",
                            "body",
                            "paused",
                            "counts",
                            "missed",
                            "subs")
                    .replicated();
        }

        /**
         * True if the group existed. Runs steps until the group is gone: marked as being deleted
         * while it takes more than one, unmarked at the end (an unsharded topic's deletion).
         */
        boolean run(String group) {
            return steps(group, "whole");
        }

        /** Phase 1 of a sharded deletion (delete.lua): marks the group as being deleted. */
        void mark(String group) {
            step(group, STEP, "mark");
        }

        /** Phase 2 of a sharded deletion: as {@link #run}, but the mark stays. True if the group existed. */
        boolean keepingMark(String group) {
            return steps(group, "keep");
        }

        /** Phase 3 of a sharded deletion: removes the mark. */
        void unmark(String group) {
            step(group, STEP, "unmark");
        }

        private boolean steps(String group, String mode) {
            boolean existed = false;
            Step s;
            do {
                s = step(group, STEP, mode);
                existed |= s.existed();
            } while (!s.done());
            return existed;
        }

        /** What one step found and did: whether the group existed, and whether it is gone now. */
        record Step(boolean existed, boolean done) {}

        /** One step of an unsharded deletion, acking at most {@code limit} of the group's pending entries. */
        Step step(String group, int limit) {
            return step(group, limit, "whole");
        }

        private Step step(String group, int limit, String mode) {
            List<?> r = array(script.run(text(group), num(limit), text(mode)));
            return new Step(integer(r.get(0)) == 1, integer(r.get(1)) == 1);
        }

        /**
         * Deletes a subscription's group only if its heartbeat is older than {@code cutoffMillis}
         * (server ms): a reclaim. True if the group existed and was deleted.
         */
        boolean runIfBeatBefore(String group, long cutoffMillis) {
            boolean existed = false;
            List<?> r;
            do {
                r = array(script.run(text(group), num(STEP), text("whole"), num(cutoffMillis)));
                existed |= integer(r.get(0)) == 1;
            } while (integer(r.get(1)) == 0);
            return existed;
        }
    }
}
