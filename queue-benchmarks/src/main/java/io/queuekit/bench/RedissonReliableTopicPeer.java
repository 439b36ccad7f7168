package io.queuekit.bench;

import java.util.ArrayList;
import java.util.List;
import org.redisson.api.RReliableTopic;
import org.redisson.api.RedissonClient;

/**
 * Redisson's {@code RReliableTopic}: {@code publish} from a topic object of its own, and one topic
 * object with one listener per receiver. Redisson makes each topic object one subscriber (a
 * consumer group of the topic's stream) and hands what that subscriber reads to all of the
 * object's listeners, so three listeners on one object would read each message from Redis once;
 * three services are three objects, each reading its own copy, as here.
 */
final class RedissonReliableTopicPeer implements BroadcastUnderTest {
    private final RedissonClient redisson;
    private final String name;
    private final RReliableTopic publisher;
    private final List<RReliableTopic> subscribers = new ArrayList<>();

    RedissonReliableTopicPeer(String uri, String name) {
        this.redisson = Clients.redisson(uri);
        this.name = "peer:rtopic:" + name;
        this.publisher = redisson.getReliableTopic(this.name);
    }

    /** Each {@code addListener} returns once its subscriber is registered in Redis. */
    @Override
    public void subscribe(int count, Sink sink) {
        for (int i = 0; i < count; i++) {
            int receiver = i;
            RReliableTopic topic = redisson.getReliableTopic(name);
            topic.addListener(String.class, (channel, message) -> sink.accept(receiver, message));
            subscribers.add(topic);
        }
        if (publisher.countSubscribers() != count) {
            throw new IllegalStateException(
                    "expected " + count + " reliable topic subscribers, Redis has " + publisher.countSubscribers());
        }
    }

    @Override
    public void publish(String body) {
        publisher.publish(body);
    }

    @Override
    public void close() {
        subscribers.forEach(RReliableTopic::removeAllListeners);
        redisson.shutdown();
    }
}
