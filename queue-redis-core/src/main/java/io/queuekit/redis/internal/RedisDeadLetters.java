package io.queuekit.redis.internal;

import io.queuekit.DeadLetter;
import io.queuekit.DeadLetters;
import io.queuekit.MessageId;
import io.queuekit.internal.DeadLetterDecoding;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Dead letters of one Redis queue; bulk moves run in chunks so no script runs long. */
final class RedisDeadLetters<T> implements DeadLetters<T> {
    private static final int CHUNK = 500;
    private final QueueEngine<T> engine;

    RedisDeadLetters(QueueEngine<T> engine) {
        this.engine = engine;
    }

    @Override
    public long size() {
        return engine.stats().dead();
    }

    @Override
    public List<DeadLetter<T>> list(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be positive: " + limit);
        }
        List<?> r = engine.deadList(limit);
        List<DeadLetter<T>> out = new ArrayList<>(r.size() / 5);
        for (int i = 0; i < r.size(); i += 5) {
            byte[] body = (byte[]) r.get(i + 4);
            out.add(DeadLetterDecoding.of(MessageId.of(QueueEngine.str(r.get(i))),
                    Integer.parseInt(QueueEngine.str(r.get(i + 2))), QueueEngine.str(r.get(i + 3)),
                    QueueEngine.instant(Long.parseLong(QueueEngine.str(r.get(i + 1)))),
                    () -> engine.decode(QueueEngine.payloadOf(body))));
        }
        return out;
    }

    @Override
    public boolean requeue(MessageId id) {
        return engine.deadMove(true, Objects.requireNonNull(id, "id"), 0) == 1;
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
            moved = engine.deadMove(requeue, null, CHUNK);
            total += moved;
        } while (moved == CHUNK);
        return total;
    }
}
