package io.queuekit.redis.internal;

import io.queuekit.MessageId;
import io.queuekit.internal.DeadLetterStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * The dead letters of a sharded queue: each shard keeps its own, and these are all of them. A
 * listing merges the shards' oldest by the time they died (ties between shards, within a
 * millisecond, in shard order); one found by id is looked for in the shard its id names, or in
 * every shard where the id does not tell.
 */
final class ShardedDeadLetters<T> implements DeadLetterStore<T> {
    private final List<DeadLetterStore<T>> shards;
    private final ToIntFunction<MessageId> home;

    /** @param home the shard that holds an id, or -1 if it may be any ({@link Sharding#home}) */
    ShardedDeadLetters(List<DeadLetterStore<T>> shards, ToIntFunction<MessageId> home) {
        this.shards = List.copyOf(shards);
        this.home = home;
    }

    @Override
    public long size() {
        long n = 0;
        for (DeadLetterStore<T> s : shards) {
            n += s.size();
        }
        return n;
    }

    @Override
    public List<Stored<T>> oldest(int limit) {
        List<List<Stored<T>>> each = new ArrayList<>(shards.size());
        for (DeadLetterStore<T> s : shards) {
            each.add(s.oldest(limit));
        }
        return ShardedStore.merge(each, Comparator.comparing(Stored::deadAt), limit);
    }

    @Override
    public Stored<T> find(MessageId id) {
        int h = home.applyAsInt(id);
        if (h >= 0) {
            return shards.get(h).find(id);
        }
        for (DeadLetterStore<T> s : shards) {
            Stored<T> found = s.find(id);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    @Override
    public boolean requeue(MessageId id) {
        int h = home.applyAsInt(id);
        if (h >= 0) {
            return shards.get(h).requeue(id);
        }
        for (DeadLetterStore<T> s : shards) {
            if (s.requeue(id)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public long requeueAll() {
        long n = 0;
        for (DeadLetterStore<T> s : shards) {
            n += s.requeueAll();
        }
        return n;
    }

    @Override
    public boolean purge(MessageId id) {
        int h = home.applyAsInt(id);
        if (h >= 0) {
            return shards.get(h).purge(id);
        }
        for (DeadLetterStore<T> s : shards) {
            if (s.purge(id)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public long purgeAll() {
        long n = 0;
        for (DeadLetterStore<T> s : shards) {
            n += s.purgeAll();
        }
        return n;
    }
}
