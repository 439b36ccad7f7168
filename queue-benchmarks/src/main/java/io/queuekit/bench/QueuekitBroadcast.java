package io.queuekit.bench;

import io.queuekit.Broadcaster;
import io.queuekit.Subscription;
import java.util.ArrayList;
import java.util.List;

/** Our broadcaster: {@code publish}, and one {@code subscribe} per receiver. */
final class QueuekitBroadcast implements BroadcastUnderTest {
    private final Broadcaster<String> broadcaster;
    private final AutoCloseable client;
    private final List<Subscription> subscriptions = new ArrayList<>();

    QueuekitBroadcast(Broadcaster<String> broadcaster, AutoCloseable client) {
        this.broadcaster = broadcaster;
        this.client = client;
    }

    @Override
    public void subscribe(int count, Sink sink) {
        for (int i = 0; i < count; i++) {
            int receiver = i;
            subscriptions.add(broadcaster.subscribe(body -> sink.accept(receiver, body)));
        }
    }

    @Override
    public void publish(String body) {
        broadcaster.publish(body);
    }

    @Override
    public void close() {
        subscriptions.forEach(Subscription::close);
        broadcaster.close();
        Impls.closeQuietly(client);
    }
}
