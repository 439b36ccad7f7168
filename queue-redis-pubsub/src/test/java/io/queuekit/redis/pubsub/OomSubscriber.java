package io.queuekit.redis.pubsub;

import io.queuekit.Codec;
import io.queuekit.redis.pubsub.RedisBroadcaster.RedisSubscription;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import redis.clients.jedis.RedisClient;

/**
 * The child JVM of {@link ReadLoopFailureTest}: subscribes to {@link #CHANNEL} and prints one line
 * per event on stdout ({@code READY}, {@code GAP <cause>}, {@code GOT <message>}, {@code CLOSED}
 * if the subscription ends) until its stdin closes or it is killed.
 */
public final class OomSubscriber {
    static final String CHANNEL = "oom";

    private OomSubscriber() {}

    public static void main(String[] args) throws Exception {
        try (RedisClient client = RedisClient.create(args[0], Integer.parseInt(args[1]));
                RedisBroadcaster<byte[]> b = RedisBroadcaster.builder(client, CHANNEL, Codec.bytes())
                        .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(200))
                        .onGap(gap -> say("GAP " + gap.cause()))
                        .build()) {
            RedisSubscription s = b.subscribe(
                    m -> say("GOT " + (m.length <= 100 ? new String(m, StandardCharsets.UTF_8) : m.length + " bytes")));
            say("READY");
            while (s.isActive()) {
                Thread.sleep(50); // the parent ends this process
            }
            say("CLOSED");
        }
    }

    private static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
