package io.queuekit.redis.internal;

import io.queuekit.MessageId;
import io.queuekit.internal.DeadLetterStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Dead letters of one Redis queue as stored; bulk moves run in chunks so no script runs long. */
final class RedisDeadLetters<T> implements DeadLetterStore<T> {
    private static final int CHUNK = 500;
    private final RedisContext<T> queue;
    private final DeadLetterScripts.Listing list;
    private final DeadLetterScripts.Find find;
    private final DeadLetterScripts.Move move;
    private final DeadLetterScripts.Count count;

    RedisDeadLetters(RedisContext<T> queue) {
        this.queue = queue;
        this.list = new DeadLetterScripts.Listing(queue);
        this.find = new DeadLetterScripts.Find(queue);
        this.move = new DeadLetterScripts.Move(queue);
        this.count = new DeadLetterScripts.Count(queue);
    }

    @Override
    public long size() {
        return count.run();
    }

    @Override
    public List<Stored<T>> oldest(int limit) {
        List<DeadLetterScripts.Row> rows = list.oldest(limit);
        List<Stored<T>> out = new ArrayList<>(rows.size());
        for (DeadLetterScripts.Row r : rows) {
            out.add(stored(r));
        }
        return out;
    }

    @Override
    public Stored<T> find(MessageId id) {
        DeadLetterScripts.Row r = find.one(id);
        return r == null ? null : stored(r);
    }

    private Stored<T> stored(DeadLetterScripts.Row r) {
        return new Stored<>(
                r.id(),
                r.attempts(),
                r.reason(),
                Instant.ofEpochMilli(r.deadAtMillis()),
                StoredBody.headers(r.body()),
                () -> queue.decode(StoredBody.payload(r.body())));
    }

    @Override
    public boolean requeue(MessageId id) {
        return move.one(true, id);
    }

    @Override
    public long requeueAll() {
        return all(true);
    }

    @Override
    public boolean purge(MessageId id) {
        return move.one(false, id);
    }

    @Override
    public long purgeAll() {
        return all(false);
    }

    private long all(boolean requeue) {
        long total = 0;
        long moved;
        do {
            moved = move.oldest(requeue, CHUNK);
            total += moved;
        } while (moved == CHUNK);
        return total;
    }
}
