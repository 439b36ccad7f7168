package io.queuekit.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.RedisClient;

/**
 * The batch-claim prototype: the least an at-least-once delay queue on a sorted set can do.
 * Bodies in a hash by id, waiting ids in a sorted set by due time (epoch ms), leases in a second
 * sorted set by deadline. One script claims up to a batch of due ids into the lease set and
 * returns their bodies; acks are pipelined, one ZREM and one HDEL per batch. No attempt counts,
 * no fencing tokens, no reaping of expired leases, no wake-ups: consumers sleep 0.5 s when nothing
 * is due. A peer to measure our delay queue's claiming against, not a queue to use.
 */
final class ZsetBatchPeer implements DelayUnderTest {
    private static final long LEASE_MILLIS = 30_000;
    private static final String CLAIM_SCRIPT = """
            local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
            if #ids == 0 then return {} end
            redis.call('ZREM', KEYS[1], unpack(ids))
            local leases = {}
            local deadline = tonumber(ARGV[1]) + tonumber(ARGV[3])
            for _, id in ipairs(ids) do leases[#leases + 1] = deadline; leases[#leases + 1] = id end
            redis.call('ZADD', KEYS[3], unpack(leases))
            return {ids, redis.call('HMGET', KEYS[2], unpack(ids))}
            """;

    private final RedisClient client;
    private final String ready;
    private final String bodies;
    private final String leases;
    private final String sha;
    private final AtomicLong ids = new AtomicLong();
    private ConsumerThreads consumers;

    ZsetBatchPeer(String uri, String name) {
        this.client = Clients.jedis(uri);
        String base = "peer:batch:{" + name + "}:";
        this.ready = base + "ready";
        this.bodies = base + "body";
        this.leases = base + "lease";
        this.sha = client.scriptLoad(CLAIM_SCRIPT, ready);
    }

    @Override
    public void schedule(String body, long dueMillis) {
        String id = Long.toString(ids.incrementAndGet());
        try (AbstractPipeline p = client.pipelined()) {
            p.hset(bodies, id, body);
            p.zadd(ready, (double) dueMillis, id);
            p.sync();
        }
    }

    @Override
    public void load(List<String> all, long dueMillis) {
        for (int from = 0; from < all.size(); from += 1000) {
            Map<String, String> b = new HashMap<>();
            Map<String, Double> z = new HashMap<>();
            for (String body : all.subList(from, Math.min(all.size(), from + 1000))) {
                String id = Long.toString(ids.incrementAndGet());
                b.put(id, body);
                z.put(id, (double) dueMillis);
            }
            try (AbstractPipeline p = client.pipelined()) {
                p.hset(bodies, b);
                p.zadd(ready, z);
                p.sync();
            }
        }
    }

    @Override
    public void startConsumers(int count, int batch, Consumer<String> sink) {
        consumers = ConsumerThreads.start("zset-batch", count, owner -> {
            List<?> r = (List<?>) client.evalsha(
                    sha,
                    List.of(ready, bodies, leases),
                    List.of(
                            Long.toString(System.currentTimeMillis()),
                            Integer.toString(batch),
                            Long.toString(LEASE_MILLIS)));
            if (r.isEmpty()) {
                owner.pause(500);
                return;
            }
            List<?> claimed = (List<?>) r.get(0);
            List<?> got = (List<?>) r.get(1);
            List<String> done = new ArrayList<>(claimed.size());
            for (int i = 0; i < claimed.size(); i++) {
                if (got.get(i) != null) {
                    sink.accept(got.get(i).toString());
                }
                done.add(claimed.get(i).toString());
            }
            String[] acked = done.toArray(String[]::new);
            try (AbstractPipeline p = client.pipelined()) {
                p.zrem(leases, acked);
                p.hdel(bodies, acked);
                p.sync();
            }
        });
    }

    @Override
    public void stopConsumers() {
        if (consumers != null) {
            consumers.stop();
        }
    }

    @Override
    public long stored() {
        return client.zcard(ready);
    }

    @Override
    public void close() {
        stopConsumers();
        client.close();
    }
}
