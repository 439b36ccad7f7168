package io.queuekit.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.RedisClient;

/** Plain Jedis PUBLISH and SUBSCRIBE, one blocked thread per subscriber. */
final class JedisPubSubPeer implements BroadcastUnderTest {
    private final RedisClient client;
    private final String channel;
    private final List<JedisPubSub> subscriptions = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    JedisPubSubPeer(String uri, String name) {
        this.client = Clients.jedis(uri);
        this.channel = "peer:channel:" + name;
    }

    @Override
    public void subscribe(int count, Sink sink) throws InterruptedException {
        CountDownLatch confirmed = new CountDownLatch(count);
        for (int i = 0; i < count; i++) {
            int receiver = i;
            JedisPubSub listener = new JedisPubSub() {
                @Override
                public void onMessage(String ch, String message) {
                    sink.accept(receiver, message);
                }

                @Override
                public void onSubscribe(String ch, int subscribedChannels) {
                    confirmed.countDown();
                }
            };
            Thread t = new Thread(
                    () -> {
                        try {
                            client.subscribe(listener, channel);
                        } catch (RuntimeException e) {
                            System.err.println("bench jedis-pubsub: subscriber " + receiver + " ended: " + e);
                        }
                    },
                    "bench-jedis-pubsub-subscriber-" + (i + 1));
            t.setDaemon(true);
            subscriptions.add(listener);
            threads.add(t);
            t.start();
        }
        if (!confirmed.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("jedis subscribers not confirmed within 10 s");
        }
    }

    @Override
    public void publish(String body) {
        client.publish(channel, body);
    }

    @Override
    public void close() {
        for (JedisPubSub s : subscriptions) {
            if (s.isSubscribed()) {
                s.unsubscribe();
            }
        }
        for (Thread t : threads) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        client.close();
    }
}
