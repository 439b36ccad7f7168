package io.queuekit.inmemory;

import io.queuekit.ConsumeOptions;
import io.queuekit.ConsumerGroup;
import io.queuekit.DeadLetters;
import io.queuekit.Delivery;
import io.queuekit.GroupInfo;
import io.queuekit.Headers;
import io.queuekit.MessageHandler;
import io.queuekit.MessageId;
import io.queuekit.Position;
import io.queuekit.QueueStats;
import io.queuekit.Semantics;
import io.queuekit.Subscription;
import io.queuekit.internal.Checks;
import io.queuekit.internal.Payloads;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * One object on a stored group of an {@link InMemoryTopic}: its own lifecycle, consumers and
 * metrics, over the {@link Contents} every object on the group shares, so each message goes to
 * one of them. Sending publishes to the topic; closing closes this object only.
 */
final class InMemoryConsumerGroup<T> implements ConsumerGroup<T> {
    private final InMemoryTopic<T> topic;
    private final TopicGroup group;
    private final Engine<T> engine;

    InMemoryConsumerGroup(InMemoryTopic<T> topic, TopicGroup group, Engine<T> engine) {
        this.topic = topic;
        this.group = group;
        this.engine = engine;
    }

    @Override
    public String name() {
        return engine.name();
    }

    @Override
    public String topic() {
        return topic.name();
    }

    @Override
    public MessageId send(T payload, Headers headers) {
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(headers, "headers");
        return engine.runtime().sending(1, added -> {
            List<MessageId> ids = publish(List.of(engine.bodies().store(payload, headers.withAll(added))));
            return ids.get(0);
        });
    }

    @Override
    public List<MessageId> sendAll(Collection<? extends T> payloads) {
        List<T> copy = Checks.payloads(payloads);
        if (copy.isEmpty()) {
            engine.checkOpen(); // an empty batch stores nothing, so it is not observed
            topic.checkOpen();
            return List.of();
        }
        return engine.runtime().sending(copy.size(), added -> {
            Payloads<T> bodies = engine.bodies();
            List<Object> encoded = new ArrayList<>(copy.size());
            for (T p : copy) {
                encoded.add(bodies.store(p, added));
            }
            return publish(encoded);
        });
    }

    private List<MessageId> publish(List<Object> encoded) {
        List<MessageId> ids = topic.publishFrom(engine, encoded);
        engine.observer.sent(ids.size());
        return List.copyOf(ids);
    }

    @Override
    public Delivery<T> poll() {
        return engine.runtime().poll();
    }

    /** {@inheritDoc} The timeout is real time, whatever the topic's clock. */
    @Override
    public Delivery<T> poll(long timeout, TimeUnit unit) throws InterruptedException {
        return engine.runtime().poll(timeout, unit);
    }

    @Override
    public Delivery<T> take() throws InterruptedException {
        return engine.runtime().take();
    }

    /** {@inheritDoc} The timeout is real time, whatever the topic's clock. */
    @Override
    public List<Delivery<T>> pollBatch(int maxMessages, long timeout, TimeUnit unit) throws InterruptedException {
        return engine.runtime().pollBatch(maxMessages, timeout, unit);
    }

    @Override
    public Subscription consume(MessageHandler<T> handler, ConsumeOptions options) {
        return engine.runtime().consume(this, handler, options);
    }

    @Override
    public void pause() {
        engine.runtime().pause();
    }

    @Override
    public void resume() {
        engine.runtime().resume();
    }

    @Override
    public boolean isPaused() {
        return engine.runtime().isPaused();
    }

    @Override
    public QueueStats stats() {
        return engine.runtime().stats();
    }

    @Override
    public Semantics semantics() {
        return InMemoryTopic.GROUP_SEMANTICS;
    }

    @Override
    public DeadLetters<T> deadLetters() {
        return engine.runtime().deadLetters();
    }

    @Override
    public void replayFrom(Position position) {
        Objects.requireNonNull(position, "position");
        engine.checkOpen();
        topic.replay(group, position);
    }

    @Override
    public GroupInfo info() {
        engine.checkOpen();
        return group.info();
    }

    @Override
    public void close() {
        engine.runtime().close();
        topic.closed(this);
    }

    @Override
    public String toString() {
        return "InMemoryConsumerGroup[" + topic.name() + "/" + name() + "]";
    }
}
