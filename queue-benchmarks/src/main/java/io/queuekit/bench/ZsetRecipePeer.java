package io.queuekit.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import redis.clients.jedis.RedisClient;

/**
 * The textbook delay queue on a sorted set, bodies as members scored by due time (epoch ms).
 * {@link Claim#POLLING}: ZRANGEBYSCORE key -inf now LIMIT 0 1, then ZREM, the consumer that
 * removed it owning the message; sleeps 1 s when nothing is due. {@link Claim#LUA}: the same two
 * commands in one Lua script, so one call claims one message; sleeps 0.5 s when nothing is due.
 */
final class ZsetRecipePeer implements DelayUnderTest {

    enum Claim {
        POLLING,
        LUA
    }

    private static final String CLAIM_SCRIPT = """
            local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 1)
            if #due == 0 then return false end
            redis.call('ZREM', KEYS[1], due[1])
            return due[1]
            """;

    private final RedisClient client;
    private final String key;
    private final Claim claim;
    private final String sha;
    private ConsumerThreads consumers;

    ZsetRecipePeer(String uri, String name, Claim claim) {
        this.client = Clients.jedis(uri);
        this.key = "peer:zset:" + name;
        this.claim = claim;
        this.sha = claim == Claim.LUA ? client.scriptLoad(CLAIM_SCRIPT, key) : null;
    }

    @Override
    public void schedule(String body, long dueMillis) {
        client.zadd(key, (double) dueMillis, body);
    }

    @Override
    public void load(List<String> bodies, long dueMillis) {
        for (int from = 0; from < bodies.size(); from += 1000) {
            Map<String, Double> chunk = new HashMap<>();
            for (String b : bodies.subList(from, Math.min(bodies.size(), from + 1000))) {
                chunk.put(b, (double) dueMillis);
            }
            client.zadd(key, chunk);
        }
    }

    @Override
    public void startConsumers(int count, int batch, Consumer<String> sink) {
        consumers = ConsumerThreads.start(claim == Claim.LUA ? "zset-lua" : "zset-polling", count, owner -> {
            if (claim == Claim.LUA) {
                String body = claimLua();
                if (body == null) {
                    owner.pause(500);
                } else {
                    sink.accept(body);
                }
                return;
            }
            @SuppressWarnings("deprecation") // ZRANGEBYSCORE: the recipe's command, as its Lua form above sends it
            List<String> due = client.zrangeByScore(key, "-inf", Long.toString(System.currentTimeMillis()), 0, 1);
            if (due.isEmpty()) {
                owner.pause(1000);
            } else if (client.zrem(key, due.get(0)) == 1) {
                sink.accept(due.get(0));
            }
            // a lost ZREM race: another consumer took it; look again at once
        });
    }

    private String claimLua() {
        Object r = client.evalsha(sha, List.of(key), List.of(Long.toString(System.currentTimeMillis())));
        return r == null ? null : r.toString();
    }

    @Override
    public void stopConsumers() {
        if (consumers != null) {
            consumers.stop();
        }
    }

    @Override
    public long stored() {
        return client.zcard(key);
    }

    @Override
    public void close() {
        stopConsumers();
        client.close();
    }
}
