package io.queuekit.it;

import io.queuekit.Codec;
import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import io.queuekit.redis.stream.RedisStreamTopic;
import io.queuekit.testing.RedisClients;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import redis.clients.jedis.RedisClient;

/**
 * A consumer for {@link KilledConsumerJvmTest}, run in its own JVM: takes one batch, acknowledges
 * the first few messages, reports on stdout what it holds, then hangs without settling the rest
 * until it is killed (or gives up after a minute, so that it never outlives a broken test).
 *
 * <p>Arguments: host port transport queue batch acked visibilityMillis
 */
public final class HoardingConsumer {
    /** The transport argument for a consumer of the group named as the queue, of the topic of that name. */
    static final String STREAM_GROUP = "STREAM_GROUP";

    private HoardingConsumer() {}

    public static void main(String[] args) throws Exception {
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        String transport = args[2];
        String queue = args[3];
        int batch = Integer.parseInt(args[4]);
        int acked = Integer.parseInt(args[5]);
        Duration visibility = Duration.ofMillis(Long.parseLong(args[6]));
        try (RedisClient client = RedisClients.builder("redis://" + host + ":" + port)
                        .poolSize(4)
                        .build();
                RedisStreamTopic<String> topic = RedisStreamTopic.builder(client, queue, Codec.utf8())
                        .visibilityTimeout(visibility)
                        .build();
                MessageQueue<String> q = transport.equals(STREAM_GROUP)
                        ? topic.group(queue)
                        : Transport.valueOf(transport)
                                .build(client, queue, Codec.utf8(), b -> b.visibilityTimeout(visibility))) {
            List<Delivery<String>> taken = q.pollBatch(batch, 10, TimeUnit.SECONDS);
            System.out.println("TOOK " + taken.stream().map(d -> d.id().value()).collect(Collectors.joining(",")));
            for (Delivery<String> d : taken.subList(0, Math.min(acked, taken.size()))) {
                d.ack();
            }
            System.out.println("ACKED "
                    + taken.stream().limit(acked).map(d -> d.id().value()).collect(Collectors.joining(",")));
            System.out.flush();
            Thread.sleep(60_000);
        }
    }
}
