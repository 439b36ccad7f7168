package io.queuekit.redis.internal;

import io.queuekit.DeadLetter;
import io.queuekit.DeadLetters;
import io.queuekit.MessageId;
import io.queuekit.internal.DeadLetterDecoding;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/** Dead letters of one Redis queue; bulk moves run in chunks so no script runs long. */
final class RedisDeadLetters<T> implements DeadLetters<T> {
    private static final int CHUNK = 500;
    private final QueueRuntime<T> queue;
    private final DeadLetterScripts.Listing list;
    private final DeadLetterScripts.Move move;
    private final LongSupplier size;

    RedisDeadLetters(QueueRuntime<T> queue, DeadLetterScripts.Listing list, DeadLetterScripts.Move move, LongSupplier size) {
        this.queue = queue;
        this.list = list;
        this.move = move;
        this.size = size;
    }

    @Override
    public long size() {
        return size.getAsLong();
    }

    @Override
    public List<DeadLetter<T>> list(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
        List<DeadLetterScripts.Row> rows = list.oldest(limit);
        List<DeadLetter<T>> out = new ArrayList<>(rows.size());
        for (DeadLetterScripts.Row r : rows) {
            out.add(DeadLetterDecoding.of(r.id(), r.attempts(), r.reason(), Instant.ofEpochMilli(r.deadAtMillis()),
                    () -> queue.decode(StoredBody.payload(r.body()))));
        }
        return out;
    }

    @Override
    public boolean requeue(MessageId id) {
        return move.one(true, Objects.requireNonNull(id, "id"));
    }

    @Override
    public long requeueAll() {
        return all(true);
    }

    @Override
    public long purge() {
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
