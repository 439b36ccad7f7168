package io.queuekit.redis.pubsub;

import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.ClusterPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;

/**
 * Sends one channel's messages on the caller's thread: {@code SPUBLISH} or {@code PUBLISH}, as
 * {@link Sharding} says a publish now is. Jedis's exceptions go to the caller, and so does the
 * {@link IllegalStateException} with which a cluster pipeline that lost a connection reports the
 * replies it never got.
 */
final class Publisher {
    private final UnifiedJedis client;
    private final byte[] channelKey;
    private final Sharding sharding;

    Publisher(UnifiedJedis client, byte[] channelKey, Sharding sharding) {
        this.client = client;
        this.channelKey = channelKey;
        this.sharding = sharding;
    }

    /** How many subscriptions received it, as Redis counts them. */
    long publish(byte[] body) {
        return sharding.forPublish() ? sharding.spublish(channelKey, body) : client.publish(channelKey, body);
    }

    /** In one pipelined round trip; for each, how many subscriptions received it. */
    long[] publishAll(List<byte[]> bodies) {
        boolean sharded = sharding.forPublish();
        try (AbstractPipeline pipeline = client.pipelined()) {
            List<Response<Long>> replies = new ArrayList<>(bodies.size());
            for (byte[] body : bodies) {
                replies.add(
                        sharded
                                ? ((ClusterPipeline) pipeline).spublish(channelKey, body)
                                : pipeline.publish(channelKey, body));
            }
            pipeline.sync();
            long[] received = new long[replies.size()];
            for (int i = 0; i < received.length; i++) {
                received[i] = replies.get(i).get();
            }
            return received;
        }
    }
}
