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
import io.queuekit.redis.internal.Sharding;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * One group of a {@link RedisStreamTopic} as a message queue: receiving, settling and counting run
 * on the group's keys ({@link GroupStore}; on a sharded topic one per shard, received from in turn
 * by a {@link ShardedGroupStore}); sending publishes to the topic, for every group.
 *
 * @param <T> the payload type
 */
final class StreamGroup<T> implements ConsumerGroup<T> {
    private final RedisStreamTopic<T> topic;
    private final String name;
    private final RedisContext<T> context;
    /** The group on each shard's stream, in shard order: one on an unsharded topic. */
    private final List<GroupStore<T>> parts;

    private final ShardedGroupStore<T> sharded;
    private final List<StreamScripts.Replay> replay;

    /** @param sharding how the topic's messages go to shards; null for an unsharded topic */
    StreamGroup(
            RedisStreamTopic<T> topic, String name, RedisContext<T> context, String consumer, Sharding<T> sharding) {
        this.topic = topic;
        this.name = name;
        this.context = context;
        List<GroupStore<T>> stores = new ArrayList<>();
        List<StreamScripts.Replay> replays = new ArrayList<>();
        for (RedisContext<T> shard : context.shards()) {
            stores.add(new GroupStore<>(shard, name, consumer));
            replays.add(new StreamScripts.Replay(shard));
        }
        this.parts = List.copyOf(stores);
        this.replay = List.copyOf(replays);
        this.sharded = sharding == null ? null : new ShardedGroupStore<>(context, parts, sharding);
        context.runtime().attach(sharded == null ? parts.get(0) : sharded);
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

    private List<MessageId> published(TopicShards.Sent p) {
        context.runtime().observer().sent(p.ids().size());
        return p.ids();
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

    /** {@inheritDoc} One script for all of this group object's deliveries (one per shard on a sharded topic). */
    @Override
    public int ackAll(Collection<? extends Delivery<T>> deliveries) {
        Objects.requireNonNull(deliveries, "deliveries");
        return sharded == null ? parts.get(0).ackAll(deliveries) : sharded.ackAll(deliveries);
    }

    @Override
    public Subscription consume(MessageHandler<T> handler, ConsumeOptions options) {
        return context.runtime().consume(this, handler, options);
    }

    // ---- the group

    /**
     * {@inheritDoc} {@code XGROUP SETID}: the group reads next after the position; entries it
     * acked are handed out again as new (attempt 1), deliveries in flight stay in flight. On a
     * sharded topic, on each shard in turn ({@link GroupTerms#start(Position, int, int)}), once
     * the group was found on every shard (one script per shard): a group missing on one is
     * replayed on none.
     */
    @Override
    public void replayFrom(Position position) {
        Objects.requireNonNull(position, "position");
        context.runtime().checkOpen();
        List<StreamScripts.Start> starts = new ArrayList<>(parts.size());
        for (int i = 0; i < parts.size(); i++) {
            starts.add(GroupTerms.start(position, i, parts.size()));
        }
        if (parts.size() > 1 && !parts.stream().allMatch(p -> p.counts().exists())) {
            throw gone(); // before any shard moves: all or none
        }
        for (int i = 0; i < parts.size(); i++) {
            if (!replay.get(i).run(name, starts.get(i))) {
                throw gone();
            }
        }
    }

    @Override
    public GroupInfo info() {
        context.runtime().checkOpen();
        StreamScripts.Info.Counts c = counts();
        if (!c.exists()) {
            throw gone();
        }
        return GroupTerms.info(name, c);
    }

    /** The group's counts, summed over the shards: one script per shard. */
    private StreamScripts.Info.Counts counts() {
        if (parts.size() == 1) {
            return parts.get(0).counts();
        }
        List<StreamScripts.Info.Counts> each = new ArrayList<>(parts.size());
        for (GroupStore<T> p : parts) {
            each.add(p.counts());
        }
        return GroupTerms.sum(each);
    }

    /** Whether the group is stored on every shard; false once it was deleted, by any process. */
    boolean exists() {
        return counts().exists();
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
        return topic.groupSemantics();
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
