package io.queuekit.bench;

import java.util.List;
import java.util.function.Consumer;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.util.KeyValue;

/**
 * The plain Jedis work queue: LPUSH to send, BRPOP to receive. At-most-once: a consumer that
 * dies after BRPOP loses the message. In batch mode, LPUSH with many values and RPOP with a count,
 * falling back to BRPOP when the list is empty.
 */
final class JedisListPeer implements QueueUnderTest {
    private final RedisClient client;
    private final String key;
    private ConsumerThreads consumers;

    JedisListPeer(String uri, String name) {
        this.client = Clients.jedis(uri);
        this.key = "peer:list:" + name;
    }

    @Override
    public void send(String body) {
        client.lpush(key, body);
    }

    @Override
    public void sendAll(List<String> bodies) {
        client.lpush(key, bodies.toArray(String[]::new));
    }

    @Override
    public void startConsumers(int count, int batch, Consumer<String> sink) {
        consumers = ConsumerThreads.start("jedis-list", count, owner -> {
            if (batch > 1) {
                List<String> some = client.rpop(key, batch);
                if (some != null && !some.isEmpty()) {
                    some.forEach(sink);
                    return;
                }
            }
            KeyValue<String, String> one = client.brpop(1.0, key);
            if (one != null) {
                sink.accept(one.getValue());
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
        return client.llen(key);
    }

    @Override
    public void close() {
        stopConsumers();
        client.close();
    }
}
