package io.queuekit.bench;

import io.queuekit.ConsumerGroup;
import io.queuekit.Subscription;
import io.queuekit.Topic;
import java.util.ArrayList;
import java.util.List;

/**
 * Our durable topic as services use it: {@code publish}, and for each receiver a group of its own
 * ({@code group-1}, {@code group-2}, ...) consumed by {@code consume} with defaults, one consumer
 * per group; the handler returns normally, so each delivery is acked.
 */
final class QueuekitTopic implements BroadcastUnderTest {
    private final Topic<String> topic;
    private final AutoCloseable client;
    private final List<ConsumerGroup<String>> groups = new ArrayList<>();
    private final List<Subscription> consumers = new ArrayList<>();

    QueuekitTopic(Topic<String> topic, AutoCloseable client) {
        this.topic = topic;
        this.client = client;
    }

    /** Creates every group first, at the topic's end, so that each gets every message published after. */
    @Override
    public void subscribe(int count, Sink sink) {
        for (int i = 0; i < count; i++) {
            groups.add(topic.group("group-" + (i + 1)));
        }
        for (int i = 0; i < count; i++) {
            int receiver = i;
            consumers.add(groups.get(i).consume(d -> sink.accept(receiver, d.payload())));
        }
    }

    @Override
    public void publish(String body) {
        topic.publish(body);
    }

    @Override
    public void close() {
        consumers.forEach(Subscription::close);
        groups.forEach(ConsumerGroup::close);
        topic.close();
        Impls.closeQuietly(client);
    }
}
