package io.queuekit.redis.stream;

import io.queuekit.MessageId;
import io.queuekit.internal.DeadLetterStore;
import java.util.ArrayList;
import java.util.List;

/**
 * The message ids of one shard of a sharded topic: Redis keeps a stream's ids as the scripts make
 * them ({@code @<stream id>}, the same on every shard), and the shard's objects hand them out with
 * the shard's suffix ({@code ~<shard>}, {@link io.queuekit.redis.internal.Sharding#home}), so that
 * a sharded group finds a delivery's or a dead letter's shard by its id alone. Nothing for an
 * unsharded topic, whose suffix is empty.
 */
final class ShardIds {
    private final String suffix;

    ShardIds(String suffix) {
        this.suffix = suffix;
    }

    /** The id as handed out: the stored id with the shard's suffix. */
    MessageId out(MessageId stored) {
        return suffix.isEmpty() ? stored : MessageId.of(stored.value() + suffix);
    }

    /** The id as stored, or null if {@code id} is not one this shard handed out. */
    MessageId in(MessageId id) {
        if (suffix.isEmpty()) {
            return id;
        }
        String v = id.value();
        return v.endsWith(suffix) && v.length() > suffix.length()
                ? MessageId.of(v.substring(0, v.length() - suffix.length()))
                : null;
    }

    /** A shard's dead letters, their ids handed out and taken back as {@link #out} and {@link #in} do. */
    <T> DeadLetterStore<T> deadLetters(DeadLetterStore<T> stored) {
        return suffix.isEmpty() ? stored : new Suffixed<>(stored);
    }

    private final class Suffixed<T> implements DeadLetterStore<T> {
        private final DeadLetterStore<T> stored;

        Suffixed(DeadLetterStore<T> stored) {
            this.stored = stored;
        }

        private Stored<T> out(Stored<T> s) {
            return s == null
                    ? null
                    : new Stored<>(
                            ShardIds.this.out(s.id()), s.attempts(), s.reason(), s.deadAt(), s.headers(), s.payload());
        }

        @Override
        public long size() {
            return stored.size();
        }

        @Override
        public List<Stored<T>> oldest(int limit) {
            List<Stored<T>> out = new ArrayList<>();
            for (Stored<T> s : stored.oldest(limit)) {
                out.add(out(s));
            }
            return out;
        }

        @Override
        public Stored<T> find(MessageId id) {
            MessageId mine = in(id);
            return mine == null ? null : out(stored.find(mine));
        }

        @Override
        public boolean requeue(MessageId id) {
            MessageId mine = in(id);
            return mine != null && stored.requeue(mine);
        }

        @Override
        public long requeueAll() {
            return stored.requeueAll();
        }

        @Override
        public boolean purge(MessageId id) {
            MessageId mine = in(id);
            return mine != null && stored.purge(mine);
        }

        @Override
        public long purgeAll() {
            return stored.purgeAll();
        }
    }
}
