package io.queuekit.it;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.redis.zset.RedisDelayQueue;
import io.queuekit.testing.RedisClients;
import java.io.InputStream;
import redis.clients.jedis.RedisClient;

/**
 * A delay queue's consumer for {@link RollingCloseLatenessTest}, run in its own JVM: consumes with
 * two workers and prints {@code GOT <payload> <epoch ms>} for each message, until its stdin closes
 * (or a minute has passed, so that it never outlives a broken test); then closes its queue.
 *
 * <p>Arguments: host port queue
 */
public final class DelayConsumerProcess {
    private DelayConsumerProcess() {}

    public static void main(String[] args) throws Exception {
        try (RedisClient client = RedisClients.builder("redis://" + args[0] + ":" + args[1])
                        .poolSize(8)
                        .build();
                RedisDelayQueue<String> q =
                        RedisDelayQueue.builder(client, args[2], Codec.utf8()).build()) {
            q.consume(
                    d -> {
                        long at = System.currentTimeMillis();
                        synchronized (System.out) {
                            System.out.println("GOT " + d.payload() + " " + at);
                            System.out.flush();
                        }
                    },
                    ConsumeOptions.builder().concurrency(2).build());
            System.out.println("READY");
            System.out.flush();
            Thread reader = new Thread(() -> {
                try (InputStream in = System.in) {
                    while (in.read() >= 0) {
                        // until the parent closes it
                    }
                } catch (Exception e) {
                    // the parent is gone
                }
            });
            reader.setDaemon(true);
            reader.start();
            reader.join(60_000);
        }
    }
}
