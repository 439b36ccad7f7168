package io.queuekit.redis.zset;

import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageId;
import io.queuekit.internal.AckAll;
import io.queuekit.internal.Checks;
import io.queuekit.redis.WaitingMessage;
import io.queuekit.redis.internal.RedisContext;
import io.queuekit.redis.internal.ShardedStore;
import io.queuekit.redis.internal.Sharding;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * A delay queue stored in shards, each a {@link ZsetStore} of its own under its hash tag (its own
 * waiting set, leases, signal list and dead letters). Messages with generated ids go to one shard
 * each (in turn, or by key), a batch without a key to one shard whole; a message with a chosen id
 * goes to the shard of the id's hash, or of its key where messages go by key. Each shard claims
 * only what is due on the server's clock, as an unsharded queue does, so nothing is early.
 * Receiving goes round the shards ({@link ShardedStore#receive}), waiting on the shard whose next
 * message falls due first; a delivery settles on its own shard.
 */
final class ZsetShards<T> extends ShardedStore<T, ZsetStore<T>> implements DelayStorage<T> {

    ZsetShards(RedisContext<T> queue, List<ZsetStore<T>> shards, Sharding<T> sharding) {
        super(queue, shards, sharding);
    }

    // ---- storing

    @Override
    public List<MessageId> send(List<? extends T> payloads, Headers headers, boolean absolute, long millis) {
        queue().runtime().checkOpen();
        if (!sharding().keyed()) {
            return shard(sharding().next()).send(payloads, headers, absolute, millis);
        }
        List<byte[]> encoded = queue().encodeAll(payloads, headers);
        int[] homes = sharding().ofEach(payloads);
        return byShard(homes, (s, at) -> shard(s).store(pick(encoded, at), absolute, millis));
    }

    @Override
    public List<MessageId> sendEach(List<? extends T> payloads, List<Headers> headers, long[] dueMillis) {
        queue().runtime().checkOpen();
        if (!sharding().keyed()) {
            return shard(sharding().next()).sendEach(payloads, headers, dueMillis);
        }
        List<byte[]> encoded = queue().encodeEach(payloads, headers);
        int[] homes = sharding().ofEach(payloads);
        return byShard(homes, (s, at) -> {
            long[] due = new long[at.size()];
            for (int j = 0; j < due.length; j++) {
                due[j] = dueMillis[at.get(j)];
            }
            return shard(s).storeEach(pick(encoded, at), due);
        });
    }

    /** What one shard stores of a batch: {@code at} are the indexes of its messages, in order. */
    @FunctionalInterface
    private interface Part {
        List<MessageId> store(int shard, List<Integer> at);
    }

    /** Stores a batch one shard at a time, in shard order; the ids in the batch's order. */
    private List<MessageId> byShard(int[] homes, Part part) {
        MessageId[] ids = new MessageId[homes.length];
        for (int s = 0; s < shards().size(); s++) {
            List<Integer> at = new ArrayList<>();
            for (int i = 0; i < homes.length; i++) {
                if (homes[i] == s) {
                    at.add(i);
                }
            }
            if (!at.isEmpty()) {
                List<MessageId> stored = part.store(s, at);
                for (int j = 0; j < at.size(); j++) {
                    ids[at.get(j)] = stored.get(j);
                }
            }
        }
        return Arrays.asList(ids);
    }

    private static List<byte[]> pick(List<byte[]> all, List<Integer> at) {
        List<byte[]> out = new ArrayList<>(at.size());
        for (int i : at) {
            out.add(all.get(i));
        }
        return out;
    }

    /**
     * In the shard of the id's hash, or, where messages go by key, of the payload's key: so a
     * second call with the same id (and, by key, a payload of the same key) meets the first.
     */
    @Override
    public boolean sendWithId(MessageId id, T payload, Headers headers, boolean absolute, long millis) {
        Checks.callerId(id);
        queue().runtime().checkOpen();
        return shard(sharding().ofChosenId(id, payload)).sendWithId(id, payload, headers, absolute, millis);
    }

    /**
     * In the shard the id names (a generated id's suffix, a chosen id's hash); in every shard,
     * until one removes it, where the id does not tell (a chosen id where messages go by key).
     */
    @Override
    public boolean cancel(MessageId id) {
        int home = sharding().home(id);
        if (home >= 0) {
            return shard(home).cancel(id);
        }
        for (ZsetStore<T> s : shards()) {
            if (s.cancel(id)) {
                return true;
            }
        }
        return false;
    }

    // ---- receiving

    @Override
    protected Taken<T> take(int index, int max) {
        List<Delivery<T>> got = new ArrayList<>();
        ZsetScripts.Claim.Result r = shard(index)
                .claim(Math.min(Checks.batchSize(max), queue().settings().claimBatch()), got);
        long next = r.nextEventMillis() < 0 ? -1 : Math.max(0, r.nextEventMillis() - r.nowMillis());
        return new Taken<>(got, next);
    }

    @Override
    protected List<Delivery<T>> await(int index, int max, long timeoutNanos) throws InterruptedException {
        return shard(index).receive(max, timeoutNanos);
    }

    /** Acks each shard's deliveries in one script per shard, others one by one ({@link AckAll#byShard}). */
    @Override
    public int ackAll(Collection<? extends Delivery<T>> deliveries) {
        return AckAll.byShard(
                deliveries,
                shards(),
                d -> d instanceof ZsetDelivery<T> z && shards().contains(z.store()) ? z.store() : null,
                ZsetStore::ackAll);
    }

    /** The first {@code max} of every shard, merged by due time; each shard's own order kept. */
    @Override
    public List<WaitingMessage<T>> peek(int max) {
        List<List<WaitingMessage<T>>> each = new ArrayList<>(shards().size());
        for (ZsetStore<T> s : shards()) {
            each.add(s.peek(max));
        }
        return merge(each, Comparator.comparing(WaitingMessage::dueAt), max);
    }
}
