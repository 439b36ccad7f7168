package io.queuekit.inmemory.suitecheck;

import io.queuekit.Broadcaster;
import io.queuekit.ConsumeOptions;
import io.queuekit.ConsumerGroup;
import io.queuekit.DelayQueue;
import io.queuekit.Delivery;
import io.queuekit.GroupInfo;
import io.queuekit.Headers;
import io.queuekit.MessageHandler;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import io.queuekit.Scheduled;
import io.queuekit.Semantics;
import io.queuekit.Subscription;
import io.queuekit.Topic;
import io.queuekit.inmemory.InMemoryBroadcaster;
import io.queuekit.inmemory.InMemoryDelayQueue;
import io.queuekit.inmemory.InMemoryMessageQueue;
import io.queuekit.inmemory.InMemoryTopic;
import io.queuekit.inmemory.ManualClock;
import io.queuekit.spi.MessageObservations;
import io.queuekit.tck.BroadcasterContractTest;
import io.queuekit.tck.DelayQueueContractTest;
import io.queuekit.tck.MessageQueueContractTest;
import io.queuekit.tck.QueueConfig;
import io.queuekit.tck.TimeControl;
import io.queuekit.tck.TopicContractTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Broken copies of the in-memory transports, each breaking one promise, run through the contract
 * suite by {@link SuiteCheck}'s subclasses: the suite must fail for every one. Their names
 * do not end in "Test", so the build does not run them as tests of their own.
 */
final class Mutants {
    private Mutants() {}

    private static InMemoryMessageQueue.Builder<String> queue(String name, QueueConfig config, ManualClock clock) {
        return InMemoryMessageQueue.<String>builder(name)
                .clock(clock)
                .codec(config.codec())
                .visibilityTimeout(config.visibilityTimeout())
                .maxAttempts(config.maxAttempts())
                .deadLetterRetention(config.deadLetterRetention())
                .metrics(config.metrics())
                .observations(config.observations());
    }

    private static InMemoryBroadcaster<String> broadcaster(String channel, MessageObservations observations) {
        return InMemoryBroadcaster.<String>builder(channel)
                .observations(observations)
                .build();
    }

    /** Delays, due times and retries all end one millisecond early. */
    static class EarlyByOneMillisecond extends DelayQueueContractTest {
        private final ManualClock clock = new ManualClock();

        private static Duration earlier(Duration d) {
            return d.compareTo(Duration.ofMillis(1)) > 0 ? d.minusMillis(1) : d;
        }

        @Override
        protected DelayQueue<String> createQueue(String name, QueueConfig config) {
            DelayQueue<String> inner = InMemoryDelayQueue.<String>builder(name)
                    .clock(clock)
                    .codec(config.codec())
                    .visibilityTimeout(config.visibilityTimeout())
                    .maxAttempts(config.maxAttempts())
                    .deadLetterRetention(config.deadLetterRetention())
                    .metrics(config.metrics())
                    .observations(config.observations())
                    .build();
            return new Forwarding.Delays<>(inner) {
                @Override
                public MessageId schedule(String payload, Headers headers, Duration delay) {
                    return delays().schedule(payload, headers, earlier(delay));
                }

                @Override
                public boolean schedule(MessageId id, String payload, Headers headers, Duration delay) {
                    return delays().schedule(id, payload, headers, earlier(delay));
                }

                @Override
                public MessageId scheduleAt(String payload, Headers headers, Instant dueAt) {
                    return delays().scheduleAt(payload, headers, dueAt.minusMillis(1));
                }

                @Override
                public boolean scheduleAt(MessageId id, String payload, Headers headers, Instant dueAt) {
                    return delays().scheduleAt(id, payload, headers, dueAt.minusMillis(1));
                }

                @Override
                public List<MessageId> scheduleEach(Collection<? extends Scheduled<? extends String>> messages) {
                    List<Scheduled<String>> earlier = new ArrayList<>();
                    for (Scheduled<? extends String> m : messages) {
                        earlier.add(new Scheduled<>(m.payload(), m.dueAt().minusMillis(1), m.headers()));
                    }
                    return delays().scheduleEach(earlier);
                }

                @Override
                Delivery<String> wrap(Delivery<String> d) {
                    return new Forwarding.Wrapped<>(d) {
                        @Override
                        public boolean retry(Duration delay) {
                            return inner.retry(earlier(delay));
                        }
                    };
                }
            };
        }

        @Override
        protected TimeControl time() {
            return TimeControl.virtual(clock, clock::advance);
        }
    }

    /** A message whose lease expired is never handed out again: it is quietly dropped. */
    static class LostRedelivery extends MessageQueueContractTest {
        private final ManualClock clock = new ManualClock();

        @Override
        protected MessageQueue<String> createQueue(String name, QueueConfig config) {
            Set<MessageId> retried = ConcurrentHashMap.newKeySet();
            return new Forwarding.Queue<>(queue(name, config, clock).build()) {
                @Override
                Delivery<String> wrap(Delivery<String> d) {
                    if (d.attempt() > 1 && !retried.remove(d.id())) {
                        d.ack();
                        return null;
                    }
                    return new Forwarding.Wrapped<>(d) {
                        @Override
                        public boolean retry(Duration delay) {
                            retried.add(d.id());
                            return inner.retry(delay);
                        }
                    };
                }
            };
        }

        @Override
        protected TimeControl time() {
            return TimeControl.virtual(clock, clock::advance);
        }
    }

    /** At most once, yet each message is handed out a second time (sent again on its first hand-out). */
    static class DuplicateAtMostOnce extends MessageQueueContractTest {
        private final ManualClock clock = new ManualClock();

        @Override
        protected MessageQueue<String> createQueue(String name, QueueConfig config) {
            Set<String> duplicated = ConcurrentHashMap.newKeySet();
            return new Forwarding.Queue<>(queue(name, config, clock)
                    .guarantee(Semantics.Guarantee.AT_MOST_ONCE)
                    .build()) {
                @Override
                Delivery<String> wrap(Delivery<String> d) {
                    if (duplicated.add(d.payload())) {
                        inner.send(d.payload());
                    }
                    return d;
                }
            };
        }

        @Override
        protected TimeControl time() {
            return TimeControl.virtual(clock, clock::advance);
        }
    }

    /** A stale delivery's ack is accepted: it settles the newer hand-out of its message instead. */
    static class StaleAckAccepted extends MessageQueueContractTest {
        private final ManualClock clock = new ManualClock();

        @Override
        protected MessageQueue<String> createQueue(String name, QueueConfig config) {
            Map<MessageId, Delivery<String>> latest = new ConcurrentHashMap<>();
            return new Forwarding.Queue<>(queue(name, config, clock).build()) {
                @Override
                Delivery<String> wrap(Delivery<String> d) {
                    latest.put(d.id(), d);
                    return new Forwarding.Wrapped<>(d) {
                        @Override
                        public boolean ack() {
                            if (inner.ack()) {
                                return true;
                            }
                            Delivery<String> newest = latest.get(d.id());
                            return newest != null && newest != inner && newest.ack();
                        }
                    };
                }
            };
        }

        @Override
        protected TimeControl time() {
            return TimeControl.virtual(clock, clock::advance);
        }
    }

    /** Messages sent together are handed out last first. */
    static class FifoBroken extends MessageQueueContractTest {
        private final ManualClock clock = new ManualClock();

        @Override
        protected MessageQueue<String> createQueue(String name, QueueConfig config) {
            return new Forwarding.Queue<>(queue(name, config, clock).build()) {
                @Override
                public List<MessageId> sendAll(Collection<? extends String> payloads) {
                    List<String> reversed = new ArrayList<>(payloads);
                    java.util.Collections.reverse(reversed);
                    List<MessageId> ids = new ArrayList<>(inner.sendAll(reversed));
                    java.util.Collections.reverse(ids);
                    return ids;
                }
            };
        }

        @Override
        protected TimeControl time() {
            return TimeControl.virtual(clock, clock::advance);
        }
    }

    /**
     * Claims an order per key (as a queue sharded by key does), yet hands out the messages sent
     * together last first, so that two messages of one key in a batch come in the wrong order.
     */
    static class PerKeyBroken extends MessageQueueContractTest {
        private final ManualClock clock = new ManualClock();

        @Override
        protected MessageQueue<String> createQueue(String name, QueueConfig config) {
            MessageQueue<String> inner = queue(name, config, clock).build();
            Semantics s = inner.semantics();
            Semantics perKey = new Semantics(
                    s.transport(),
                    s.guarantee(),
                    Semantics.Ordering.PER_KEY,
                    s.retainedWithoutConsumers(),
                    s.fanOut(),
                    s.delays());
            return new Forwarding.Queue<>(inner) {
                @Override
                public Semantics semantics() {
                    return perKey;
                }

                @Override
                public List<MessageId> sendAll(Collection<? extends String> payloads) {
                    List<String> reversed = new ArrayList<>(payloads);
                    java.util.Collections.reverse(reversed);
                    List<MessageId> ids = new ArrayList<>(inner.sendAll(reversed));
                    java.util.Collections.reverse(ids);
                    return ids;
                }
            };
        }

        @Override
        protected TimeControl time() {
            return TimeControl.virtual(clock, clock::advance);
        }
    }

    /**
     * The batch forms loop over the single ones, as a default method in the interface would: an
     * element refused part way leaves those before it stored.
     */
    static class ScheduleAllByLoop extends DelayQueueContractTest {
        private final ManualClock clock = new ManualClock();

        @Override
        protected DelayQueue<String> createQueue(String name, QueueConfig config) {
            DelayQueue<String> inner = InMemoryDelayQueue.<String>builder(name)
                    .clock(clock)
                    .codec(config.codec())
                    .visibilityTimeout(config.visibilityTimeout())
                    .maxAttempts(config.maxAttempts())
                    .deadLetterRetention(config.deadLetterRetention())
                    .metrics(config.metrics())
                    .observations(config.observations())
                    .build();
            return new Forwarding.Delays<>(inner) {
                @Override
                public List<MessageId> scheduleAll(Collection<? extends String> payloads, Duration delay) {
                    List<MessageId> ids = new ArrayList<>();
                    for (String p : payloads) {
                        ids.add(schedule(p, delay));
                    }
                    return ids;
                }

                @Override
                public List<MessageId> scheduleAllAt(Collection<? extends String> payloads, Instant dueAt) {
                    List<MessageId> ids = new ArrayList<>();
                    for (String p : payloads) {
                        ids.add(scheduleAt(p, dueAt));
                    }
                    return ids;
                }
            };
        }

        @Override
        protected TimeControl time() {
            return TimeControl.virtual(clock, clock::advance);
        }
    }

    /**
     * scheduleEach loops over scheduleAt, as a default method in the interface would: an element
     * refused part way leaves those before it stored, and an empty batch never asks whether the
     * queue is closed.
     */
    static class ScheduleEachByLoop extends DelayQueueContractTest {
        private final ManualClock clock = new ManualClock();

        @Override
        protected DelayQueue<String> createQueue(String name, QueueConfig config) {
            DelayQueue<String> inner = InMemoryDelayQueue.<String>builder(name)
                    .clock(clock)
                    .codec(config.codec())
                    .visibilityTimeout(config.visibilityTimeout())
                    .maxAttempts(config.maxAttempts())
                    .deadLetterRetention(config.deadLetterRetention())
                    .metrics(config.metrics())
                    .observations(config.observations())
                    .build();
            return new Forwarding.Delays<>(inner) {
                @Override
                public List<MessageId> scheduleEach(Collection<? extends Scheduled<? extends String>> messages) {
                    List<MessageId> ids = new ArrayList<>();
                    for (Scheduled<? extends String> m : messages) {
                        ids.add(scheduleAt(m.payload(), m.headers(), m.dueAt()));
                    }
                    return ids;
                }
            };
        }

        @Override
        protected TimeControl time() {
            return TimeControl.virtual(clock, clock::advance);
        }
    }

    /** A message handed out again (retried, or after its lease) has lost its headers. */
    static class HeadersLostOnRedelivery extends MessageQueueContractTest {
        private final ManualClock clock = new ManualClock();

        @Override
        protected MessageQueue<String> createQueue(String name, QueueConfig config) {
            return new Forwarding.Queue<>(queue(name, config, clock).build()) {
                @Override
                Delivery<String> wrap(Delivery<String> d) {
                    return new Forwarding.Wrapped<>(d) {
                        @Override
                        public Headers headers() {
                            return inner.attempt() > 1 ? Headers.empty() : inner.headers();
                        }
                    };
                }
            };
        }

        @Override
        protected TimeControl time() {
            return TimeControl.virtual(clock, clock::advance);
        }
    }

    /** sendAll loops over send: the observations see a send of one message per message. */
    static class SendAllObservedPerMessage extends MessageQueueContractTest {
        private final ManualClock clock = new ManualClock();

        @Override
        protected MessageQueue<String> createQueue(String name, QueueConfig config) {
            return new Forwarding.Queue<>(queue(name, config, clock).build()) {
                @Override
                public List<MessageId> sendAll(Collection<? extends String> payloads) {
                    List<MessageId> ids = new ArrayList<>();
                    for (String p : List.copyOf(payloads)) {
                        ids.add(inner.send(p));
                    }
                    return ids;
                }
            };
        }

        @Override
        protected TimeControl time() {
            return TimeControl.virtual(clock, clock::advance);
        }
    }

    /** pause() is remembered and reported, but the queue goes on handing messages out. */
    static class IgnoresPause extends MessageQueueContractTest {
        private final ManualClock clock = new ManualClock();

        @Override
        protected MessageQueue<String> createQueue(String name, QueueConfig config) {
            return new Forwarding.Queue<>(queue(name, config, clock).build()) {
                private volatile boolean paused;

                @Override
                public void pause() {
                    inner.isPaused(); // refuses a closed queue, as pause() does
                    paused = true;
                }

                @Override
                public void resume() {
                    inner.isPaused();
                    paused = false;
                }

                @Override
                public boolean isPaused() {
                    inner.isPaused();
                    return paused;
                }

                @Override
                public QueueStats stats() {
                    return inner.stats().withPaused(paused);
                }
            };
        }

        @Override
        protected TimeControl time() {
            return TimeControl.virtual(clock, clock::advance);
        }
    }

    /** publish with headers publishes the message without them. */
    static class HeadersNotPublished extends BroadcasterContractTest {
        @Override
        protected Broadcaster<String> createBroadcaster(String channel, MessageObservations observations) {
            return new Forwarding.Broadcasting<>(broadcaster(channel, observations)) {
                @Override
                public long publish(String message, Headers headers) {
                    java.util.Objects.requireNonNull(headers, "headers");
                    return inner.publish(message);
                }
            };
        }
    }

    /** publishAll loops over publish: a null element leaves the messages before it published. */
    static class PublishAllByLoop extends BroadcasterContractTest {
        @Override
        protected Broadcaster<String> createBroadcaster(String channel, MessageObservations observations) {
            return new Forwarding.Broadcasting<>(broadcaster(channel, observations)) {
                @Override
                public long[] publishAll(Collection<? extends String> messages) {
                    long[] received = new long[messages.size()];
                    int i = 0;
                    for (String m : messages) {
                        received[i++] = publish(m);
                    }
                    return received;
                }
            };
        }
    }

    /** Every second message published reaches no one, though publish says it did. */
    static class DroppedBroadcast extends BroadcasterContractTest {
        @Override
        protected Broadcaster<String> createBroadcaster(String channel, MessageObservations observations) {
            AtomicLong published = new AtomicLong();
            AtomicLong lastCount = new AtomicLong();
            return new Forwarding.Broadcasting<>(broadcaster(channel, observations)) {
                @Override
                public long publish(String message, Headers headers) {
                    if (published.getAndIncrement() % 2 == 1) {
                        java.util.Objects.requireNonNull(message, "message");
                        return lastCount.get();
                    }
                    lastCount.set(inner.publish(message, headers));
                    return lastCount.get();
                }
            };
        }
    }

    private static InMemoryTopic<String> topic(String name, MessageObservations observations) {
        return InMemoryTopic.<String>builder(name).observations(observations).build();
    }

    /**
     * A group's object whose managed consumers skip what {@link #wrap} drops (acked and not handed
     * out), so that a dropped message is lost rather than handed to a handler as null.
     */
    private static class Dropping extends Forwarding.Group<String> {
        Dropping(ConsumerGroup<String> inner) {
            super(inner);
        }

        @Override
        public Subscription consume(MessageHandler<String> handler, ConsumeOptions options) {
            return inner.consume(
                    handler == null
                            ? null
                            : d -> {
                                Delivery<String> w = wrap(d);
                                if (w != null) {
                                    handler.handle(w);
                                }
                            },
                    options);
        }
    }

    /**
     * A message published while a group has no consumer running is lost for that group: only the
     * groups being consumed at that moment keep it, as if retention needed a live reader.
     */
    static class LateGroupMissesMessages extends TopicContractTest {
        @Override
        protected Topic<String> createTopic(String name, MessageObservations observations) {
            Map<String, AtomicInteger> running = new ConcurrentHashMap<>();
            Map<String, List<String>> lost = new ConcurrentHashMap<>();
            Topic<String> inner = topic(name, observations);
            class Late {
                /** Notes {@code message}, about to be published, as lost for every group with no consumer running. */
                void publishing(String message) {
                    if (message == null) {
                        return;
                    }
                    for (GroupInfo g : inner.groups()) {
                        if (!g.subscription()
                                && running.getOrDefault(g.name(), new AtomicInteger())
                                                .get()
                                        == 0) {
                            lost.computeIfAbsent(g.name(), n -> new CopyOnWriteArrayList<>())
                                    .add(message);
                        }
                    }
                }
            }
            Late late = new Late();
            return new Forwarding.Publishing<>(inner) {
                @Override
                public long publish(String message, Headers headers) {
                    late.publishing(message);
                    return inner.publish(message, headers);
                }

                @Override
                ConsumerGroup<String> wrapGroup(ConsumerGroup<String> g) {
                    String group = g.name();
                    return new Dropping(g) {
                        @Override
                        public MessageId send(String payload, Headers headers) {
                            late.publishing(payload);
                            return inner.send(payload, headers);
                        }

                        @Override
                        Delivery<String> wrap(Delivery<String> d) {
                            List<String> mine = lost.get(group);
                            if (d.attempt() == 1 && mine != null && mine.remove(d.payload())) {
                                d.ack();
                                return null;
                            }
                            return d;
                        }

                        @Override
                        public Subscription consume(MessageHandler<String> handler, ConsumeOptions options) {
                            AtomicInteger n = running.computeIfAbsent(group, x -> new AtomicInteger());
                            n.incrementAndGet();
                            Subscription s;
                            try {
                                s = super.consume(handler, options);
                            } catch (RuntimeException e) {
                                n.decrementAndGet();
                                throw e;
                            }
                            AtomicBoolean closed = new AtomicBoolean();
                            return new Subscription() {
                                @Override
                                public boolean isActive() {
                                    return s.isActive();
                                }

                                @Override
                                public void close() {
                                    s.close();
                                    if (closed.compareAndSet(false, true)) {
                                        n.decrementAndGet();
                                    }
                                }
                            };
                        }
                    };
                }
            };
        }
    }

    /**
     * An ack in one group settles the message for every group: a group that had not been handed it
     * yet never is (its copy is acked unseen).
     */
    static class AcksSharedAcrossGroups extends TopicContractTest {
        @Override
        protected Topic<String> createTopic(String name, MessageObservations observations) {
            Map<MessageId, String> ackedBy = new ConcurrentHashMap<>();
            return new Forwarding.Publishing<>(topic(name, observations)) {
                @Override
                ConsumerGroup<String> wrapGroup(ConsumerGroup<String> g) {
                    String group = g.name();
                    return new Dropping(g) {
                        @Override
                        Delivery<String> wrap(Delivery<String> d) {
                            String by = ackedBy.get(d.id());
                            if (by != null && !by.equals(group)) {
                                d.ack();
                                return null;
                            }
                            return new Forwarding.Wrapped<>(d) {
                                @Override
                                public boolean ack() {
                                    boolean acked = inner.ack();
                                    if (acked) {
                                        ackedBy.putIfAbsent(d.id(), group);
                                    }
                                    return acked;
                                }
                            };
                        }
                    };
                }
            };
        }
    }

    /** publish counts the durable groups it stored the message for, and leaves out the subscriptions. */
    static class PublishCountsNoSubscriptions extends TopicContractTest {
        @Override
        protected Topic<String> createTopic(String name, MessageObservations observations) {
            return new Forwarding.Publishing<>(topic(name, observations)) {
                @Override
                public long publish(String message, Headers headers) {
                    long stored = inner.publish(message, headers);
                    return stored
                            - topic().groups().stream()
                                    .filter(GroupInfo::subscription)
                                    .count();
                }
            };
        }
    }
}
