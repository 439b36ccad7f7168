package io.queuekit.redis.stream;

import io.queuekit.ConsumeOptions;
import io.queuekit.ConsumerGroup;
import io.queuekit.DeadLetters;
import io.queuekit.Delivery;
import io.queuekit.GroupInfo;
import io.queuekit.Headers;
import io.queuekit.MessageHandler;
import io.queuekit.MessageId;
import io.queuekit.Position;
import io.queuekit.QueueException;
import io.queuekit.QueueStats;
import io.queuekit.Semantics;
import io.queuekit.Subscription;
import io.queuekit.internal.Checks;
import io.queuekit.redis.internal.RedisContext;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * One group of a {@link RedisStreamTopic} as a message queue: receiving, settling and counting run
 * on the group's keys ({@link GroupStore}); sending publishes to the topic, for every group.
 *
 * @param <T> the payload type
 */
final class StreamGroup<T> implements ConsumerGroup<T> {
    private final RedisStreamTopic<T> topic;
    private final String name;
    private final RedisContext<T> context;
    private final GroupStore<T> store;
    private final StreamScripts.Replay replay;

    StreamGroup(RedisStreamTopic<T> topic, String name, RedisContext<T> context, String consumer) {
        this.topic = topic;
        this.name = name;
        this.context = context;
        this.store = new GroupStore<>(context, name, consumer);
        this.replay = new StreamScripts.Replay(context);
        context.runtime().attach(store);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String topic() {
        return topic.name();
    }

    // ---- sending: to the topic

    /** {@inheritDoc} Publishes to the topic: every group receives it. */
    @Override
    public MessageId send(T payload, Headers headers) {
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(headers, "headers");
        context.runtime().checkOpen();
        List<T> one = List.of(payload);
        return context.runtime()
                .sending(1, added -> published(topic.store(one, headers.withAll(added))))
                .get(0);
    }

    /** {@inheritDoc} One script publishes the whole batch to the topic. */
    @Override
    public List<MessageId> sendAll(Collection<? extends T> payloads) {
        List<T> copy = Checks.payloads(payloads);
        context.runtime().checkOpen();
        if (copy.isEmpty()) {
            return List.of();
        }
        return context.runtime().sending(copy.size(), added -> published(topic.store(copy, added)));
    }

    private List<MessageId> published(StreamScripts.Publish.Published p) {
        context.runtime().observer().sent(p.streamIds().size());
        return p.messageIds();
    }

    // ---- receiving

    @Override
    public Delivery<T> poll() {
        return context.runtime().poll();
    }

    @Override
    public Delivery<T> poll(long timeout, TimeUnit unit) throws InterruptedException {
        return context.runtime().poll(timeout, unit);
    }

    @Override
    public Delivery<T> take() throws InterruptedException {
        return context.runtime().take();
    }

    @Override
    public List<Delivery<T>> pollBatch(int maxMessages, long timeout, TimeUnit unit) throws InterruptedException {
        return context.runtime().pollBatch(maxMessages, timeout, unit);
    }

    /** {@inheritDoc} One script for all of this group object's deliveries. */
    @Override
    public int ackAll(Collection<? extends Delivery<T>> deliveries) {
        Objects.requireNonNull(deliveries, "deliveries");
        return store.ackAll(deliveries);
    }

    @Override
    public Subscription consume(MessageHandler<T> handler, ConsumeOptions options) {
        return context.runtime().consume(this, handler, options);
    }

    // ---- the group

    /**
     * {@inheritDoc} {@code XGROUP SETID}: the group reads next after the position; entries it
     * acked are handed out again as new (attempt 1), deliveries in flight stay in flight.
     */
    @Override
    public void replayFrom(Position position) {
        Objects.requireNonNull(position, "position");
        context.runtime().checkOpen();
        StreamScripts.Start start = GroupTerms.start(position);
        if (!replay.run(name, start)) {
            throw gone();
        }
    }

    @Override
    public GroupInfo info() {
        context.runtime().checkOpen();
        StreamScripts.Info.Counts c = store.counts();
        if (!c.exists()) {
            throw gone();
        }
        return GroupTerms.info(name, c);
    }

    /** Whether the group is stored (one script); false once it was deleted, by any process. */
    boolean exists() {
        return store.counts().exists();
    }

    private QueueException gone() {
        return new QueueException("group " + name + " of topic " + topic.name() + " does not exist: it was deleted");
    }

    // ---- inspection and lifecycle

    @Override
    public void pause() {
        context.runtime().pause();
    }

    @Override
    public void resume() {
        context.runtime().resume();
    }

    @Override
    public boolean isPaused() {
        return context.runtime().isPaused();
    }

    /** {@inheritDoc} Ready: the group's lag (0 where the server cannot say) and retries that fell due. */
    @Override
    public QueueStats stats() {
        return context.runtime().stats();
    }

    @Override
    public Semantics semantics() {
        return RedisStreamTopic.GROUP_SEMANTICS;
    }

    @Override
    public DeadLetters<T> deadLetters() {
        return context.runtime().deadLetters();
    }

    /** {@inheritDoc} The group stays stored; {@link RedisStreamTopic#deleteGroup} removes it. */
    @Override
    public void close() {
        context.runtime().close();
        topic.forget(this);
    }

    @Override
    public String toString() {
        return "RedisStreamTopic.Group[" + topic.name() + "/" + name + "]";
    }
}
