package io.queuekit.inmemory.suitecheck;

import io.queuekit.BroadcastListener;
import io.queuekit.Broadcaster;
import io.queuekit.ConsumeOptions;
import io.queuekit.ConsumerGroup;
import io.queuekit.DeadLetters;
import io.queuekit.DelayQueue;
import io.queuekit.Delivery;
import io.queuekit.GroupInfo;
import io.queuekit.Headers;
import io.queuekit.MessageHandler;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.Position;
import io.queuekit.QueueStats;
import io.queuekit.Scheduled;
import io.queuekit.Scheduler;
import io.queuekit.Semantics;
import io.queuekit.Subscription;
import io.queuekit.Topic;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Transports that forward every call to an in-memory one, for the broken copies in
 * {@link Mutants} to override one promise each. Managed consumers run on the inner queue, with the
 * handler given the wrapped delivery.
 */
final class Forwarding {
    private Forwarding() {}

    static class Queue<T> implements MessageQueue<T> {
        final MessageQueue<T> inner;

        Queue(MessageQueue<T> inner) {
            this.inner = inner;
        }

        /** Every delivery handed out passes here. */
        Delivery<T> wrap(Delivery<T> d) {
            return new Wrapped<>(d);
        }

        private List<Delivery<T>> wrapAll(List<Delivery<T>> ds) {
            List<Delivery<T>> out = new ArrayList<>(ds.size());
            for (Delivery<T> d : ds) {
                Delivery<T> w = wrap(d);
                if (w != null) {
                    out.add(w);
                }
            }
            return out;
        }

        private Delivery<T> wrapOrNull(Delivery<T> d) {
            return d == null ? null : wrap(d);
        }

        @Override
        public String name() {
            return inner.name();
        }

        @Override
        public MessageId send(T payload, Headers headers) {
            return inner.send(payload, headers);
        }

        @Override
        public List<MessageId> sendAll(Collection<? extends T> payloads) {
            return inner.sendAll(payloads);
        }

        @Override
        public Delivery<T> poll() {
            return wrapOrNull(inner.poll());
        }

        @Override
        public Delivery<T> poll(long timeout, TimeUnit unit) throws InterruptedException {
            return wrapOrNull(inner.poll(timeout, unit));
        }

        @Override
        public Delivery<T> take() throws InterruptedException {
            return wrap(inner.take());
        }

        @Override
        public List<Delivery<T>> pollBatch(int maxMessages, long timeout, TimeUnit unit) throws InterruptedException {
            return wrapAll(inner.pollBatch(maxMessages, timeout, unit));
        }

        @Override
        public Subscription consume(MessageHandler<T> handler, ConsumeOptions options) {
            return inner.consume(handler == null ? null : d -> handler.handle(wrap(d)), options);
        }

        @Override
        public void pause() {
            inner.pause();
        }

        @Override
        public void resume() {
            inner.resume();
        }

        @Override
        public boolean isPaused() {
            return inner.isPaused();
        }

        @Override
        public QueueStats stats() {
            return inner.stats();
        }

        @Override
        public Semantics semantics() {
            return inner.semantics();
        }

        @Override
        public DeadLetters<T> deadLetters() {
            return inner.deadLetters();
        }

        @Override
        public void close() {
            inner.close();
        }
    }

    static class Delays<T> extends Queue<T> implements DelayQueue<T> {
        Delays(DelayQueue<T> inner) {
            super(inner);
        }

        DelayQueue<T> delays() {
            return (DelayQueue<T>) inner;
        }

        @Override
        public Scheduler<T> scheduler() {
            return delays().scheduler();
        }

        @Override
        public MessageId schedule(T payload, Headers headers, Duration delay) {
            return delays().schedule(payload, headers, delay);
        }

        @Override
        public MessageId scheduleAt(T payload, Headers headers, Instant dueAt) {
            return delays().scheduleAt(payload, headers, dueAt);
        }

        @Override
        public boolean schedule(MessageId id, T payload, Headers headers, Duration delay) {
            return delays().schedule(id, payload, headers, delay);
        }

        @Override
        public boolean scheduleAt(MessageId id, T payload, Headers headers, Instant dueAt) {
            return delays().scheduleAt(id, payload, headers, dueAt);
        }

        @Override
        public List<MessageId> scheduleAll(Collection<? extends T> payloads, Duration delay) {
            return delays().scheduleAll(payloads, delay);
        }

        @Override
        public List<MessageId> scheduleAllAt(Collection<? extends T> payloads, Instant dueAt) {
            return delays().scheduleAllAt(payloads, dueAt);
        }

        @Override
        public List<MessageId> scheduleEach(Collection<? extends Scheduled<? extends T>> messages) {
            return delays().scheduleEach(messages);
        }

        @Override
        public boolean cancel(MessageId id) {
            return delays().cancel(id);
        }
    }

    static class Wrapped<T> implements Delivery<T> {
        final Delivery<T> inner;

        Wrapped(Delivery<T> inner) {
            this.inner = inner;
        }

        @Override
        public MessageId id() {
            return inner.id();
        }

        @Override
        public T payload() {
            return inner.payload();
        }

        @Override
        public Headers headers() {
            return inner.headers();
        }

        @Override
        public int attempt() {
            return inner.attempt();
        }

        @Override
        public Instant enqueuedAt() {
            return inner.enqueuedAt();
        }

        @Override
        public boolean ack() {
            return inner.ack();
        }

        @Override
        public boolean retry(Duration delay) {
            return inner.retry(delay);
        }

        @Override
        public boolean deadLetter(String reason) {
            return inner.deadLetter(reason);
        }

        @Override
        public boolean extendLease(Duration duration) {
            return inner.extendLease(duration);
        }
    }

    static class Broadcasting<T> implements Broadcaster<T> {
        final Broadcaster<T> inner;

        Broadcasting(Broadcaster<T> inner) {
            this.inner = inner;
        }

        @Override
        public String name() {
            return inner.name();
        }

        @Override
        public long publish(T message, Headers headers) {
            return inner.publish(message, headers);
        }

        @Override
        public long[] publishAll(Collection<? extends T> messages) {
            return inner.publishAll(messages);
        }

        @Override
        public Subscription subscribeWithHeaders(BroadcastListener<? super T> listener) {
            return inner.subscribeWithHeaders(listener);
        }

        @Override
        public Semantics semantics() {
            return inner.semantics();
        }

        @Override
        public void close() {
            inner.close();
        }
    }

    static class Group<T> extends Queue<T> implements ConsumerGroup<T> {
        Group(ConsumerGroup<T> inner) {
            super(inner);
        }

        ConsumerGroup<T> group() {
            return (ConsumerGroup<T>) inner;
        }

        @Override
        public String topic() {
            return group().topic();
        }

        @Override
        public void replayFrom(Position position) {
            group().replayFrom(position);
        }

        @Override
        public GroupInfo info() {
            return group().info();
        }
    }

    /** A topic whose group objects pass through {@link #wrapGroup}. */
    static class Publishing<T> extends Broadcasting<T> implements Topic<T> {
        Publishing(Topic<T> inner) {
            super(inner);
        }

        Topic<T> topic() {
            return (Topic<T>) inner;
        }

        /** Every group object handed out passes here. */
        ConsumerGroup<T> wrapGroup(ConsumerGroup<T> g) {
            return new Group<>(g);
        }

        @Override
        public ConsumerGroup<T> group(String name, Position start) {
            return wrapGroup(topic().group(name, start));
        }

        @Override
        public List<GroupInfo> groups() {
            return topic().groups();
        }

        @Override
        public boolean deleteGroup(String name) {
            return topic().deleteGroup(name);
        }

        @Override
        public long size() {
            return topic().size();
        }
    }
}
