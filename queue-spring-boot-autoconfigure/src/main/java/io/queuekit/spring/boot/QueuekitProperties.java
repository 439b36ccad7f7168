package io.queuekit.spring.boot;

import io.queuekit.Semantics;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code queuekit.*} properties: the queues an application declares, where they live, the
 * health check's settings and whether the queues are observed. Every queue is a map entry under {@code queuekit.queues},
 * named by its key:
 *
 * <pre>
 * queuekit.queues.orders.type=list
 * queuekit.queues.orders.payload-type=com.example.Order
 * queuekit.queues.orders.max-attempts=5
 * </pre>
 *
 * Settings left out take the transport's defaults (see docs/defaults.md). A property
 * no queue knows, or a value the transport refuses, fails start-up with a message naming it (the
 * auto-configuration binds these properties strictly before any bean is made; {@code queuekit.redis.*}
 * is left to the test fixtures of {@code queue-testing}).
 */
@ConfigurationProperties(prefix = "queuekit")
public class QueuekitProperties {

    /** Where the queues live: Redis (the default) or in this JVM. */
    public enum Transport {
        /** On the Redis server that {@code spring.data.redis.*} names. */
        REDIS,
        /** In memory, for tests and local runs: nothing survives the JVM. */
        IN_MEMORY
    }

    /** What a queue entry becomes. */
    public enum Type {
        /** A {@code MessageQueue} on a Redis LIST: first-in first-out work. */
        LIST,
        /** A {@code DelayQueue} on a Redis ZSET: work due at a time. */
        DELAY,
        /** A {@code Broadcaster} on Redis PUB/SUB: every subscriber gets every message, nothing is kept. */
        BROADCAST,
        /**
         * A {@code Topic} on a Redis stream: every consumer group gets every message, kept for it
         * while none of its consumers runs.
         */
        STREAM
    }

    /** The clock of in-memory queues. */
    public enum ClockMode {
        /** The system clock. */
        SYSTEM,
        /** A {@code ManualClock} bean that tests advance. */
        MANUAL
    }

    /** The queue of the {@code @QueueSchedule} methods unless {@code queuekit.schedule-queue} names another. */
    static final String DEFAULT_SCHEDULE_QUEUE = "queuekit-schedules";

    /** Where the queues live. */
    private Transport transport = Transport.REDIS;

    /** The key prefix of every queue that does not set its own; "queuekit" if unset. */
    private String keyPrefix;

    /** The queues, by name. */
    private Map<String, Queue> queues = new LinkedHashMap<>();

    /** Recurring messages on the delay queues, by schedule name. */
    private Map<String, ScheduleProperties> schedules = new LinkedHashMap<>();

    /**
     * The delay queue that runs the QueueSchedule methods, made by the starter when there are any
     * (a queuekit.queues entry of this name sets its retry and other settings, and must be a delay
     * queue of strings).
     */
    private String scheduleQueue = DEFAULT_SCHEDULE_QUEUE;

    private final InMemory inMemory = new InMemory();

    private final Health health = new Health();

    private final Observations observations = new Observations();

    public Transport getTransport() {
        return transport;
    }

    public void setTransport(Transport transport) {
        this.transport = transport;
    }

    public String getKeyPrefix() {
        return keyPrefix;
    }

    public void setKeyPrefix(String keyPrefix) {
        this.keyPrefix = keyPrefix;
    }

    public Map<String, Queue> getQueues() {
        return queues;
    }

    public void setQueues(Map<String, Queue> queues) {
        this.queues = queues;
    }

    public Map<String, ScheduleProperties> getSchedules() {
        return schedules;
    }

    public void setSchedules(Map<String, ScheduleProperties> schedules) {
        this.schedules = schedules;
    }

    public String getScheduleQueue() {
        return scheduleQueue;
    }

    public void setScheduleQueue(String scheduleQueue) {
        this.scheduleQueue = scheduleQueue;
    }

    public InMemory getInMemory() {
        return inMemory;
    }

    public Health getHealth() {
        return health;
    }

    public Observations getObservations() {
        return observations;
    }

    /** Settings of the in-memory transport. */
    public static class InMemory {
        /** The clock in-memory queues read: the system clock, or a ManualClock bean that tests advance. */
        private ClockMode clock = ClockMode.SYSTEM;

        public ClockMode getClock() {
            return clock;
        }

        public void setClock(ClockMode clock) {
            this.clock = clock;
        }
    }

    /** Micrometer Observations of the queues. */
    public static class Observations {
        /**
         * Whether every queue and broadcaster is observed in the application's ObservationRegistry,
         * when it has one (Spring Boot Actuator makes one): sends and handled messages as
         * queuekit.send and queuekit.process observations, traced through the messages' headers
         * when Micrometer Tracing is set up.
         */
        private boolean enabled = true;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }

    /** Settings of the queuekit health indicator. */
    public static class Health {
        /** Dead letters a queue may hold before the health indicator reports DOWN; unset, never. */
        private Long deadLetterThreshold;

        public Long getDeadLetterThreshold() {
            return deadLetterThreshold;
        }

        public void setDeadLetterThreshold(Long deadLetterThreshold) {
            this.deadLetterThreshold = deadLetterThreshold;
        }

        /**
         * How long a broadcast listener may be without its subscription (reconnecting, or not yet
         * subscribed) before the health indicator reports DOWN; unset, never: it stays UP and shows
         * the listener's state.
         */
        private Duration broadcastDownAfter;

        public Duration getBroadcastDownAfter() {
            return broadcastDownAfter;
        }

        public void setBroadcastDownAfter(Duration broadcastDownAfter) {
            this.broadcastDownAfter = broadcastDownAfter;
        }
    }

    /** One queue or broadcast channel. */
    public static class Queue {
        /**
         * What the queue is: list (work queue), delay (delay queue), broadcast (pub/sub) or stream
         * (durable fan-out to consumer groups).
         */
        private Type type = Type.LIST;

        /**
         * The class of the payloads, encoded as JSON with the application's Jackson 3 mapper (or
         * the JsonMapper bean named queuekitJsonMapper), unless a codec is set;
         * java.lang.String and byte[] are stored as they are. Unset: the parameter type of the
         * queue's listener method, type arguments included, else java.lang.String. A class only: a
         * type with type arguments, such as {@code List<Order>}, comes from the listener's parameter.
         */
        private Class<?> payloadType;

        /**
         * The name of a bean of type io.queuekit.Codec that encodes the queue's payloads instead
         * of the JSON codec; it must take the queue's payload type.
         */
        private String codec;

        /** The first part of the queue's Redis keys; queuekit by default. */
        private String keyPrefix;

        /** How long a received message stays invisible before it is delivered again (list, delay, stream). */
        private Duration visibilityTimeout;

        /** Deliveries before a failing message goes to the dead letters (list, delay, stream). */
        private Integer maxAttempts;

        /** Dead letters kept per queue (per group of a stream), the oldest dropped first (list, delay, stream). */
        private Integer deadLetterRetention;

        /** The largest encoded payload accepted, in bytes. */
        private Integer maxPayloadBytes;

        /** How long one blocking receive waits on Redis before it looks again (list, delay, stream). */
        private Duration blockTimeout;

        /** At-least-once (the default) or at-most-once (list only). */
        private Semantics.Guarantee guarantee;

        /** Hash tags the queue is spread over, for Redis Cluster (list, delay, stream); 1 by default. */
        private Integer shards;

        /**
         * On a Redis Cluster of Redis 7 or later, whether the channel uses sharded pub/sub
         * (broadcast only); true by default.
         */
        private Boolean sharded;

        /** How a listener method of the queue waits before a failed message is tried again. */
        private final Retry retry = new Retry();

        /** How a listener method of the queue fetches and holds messages (list, delay, stream). */
        private final Consumer consumer = new Consumer();

        /** How each subscription of a broadcast buffers and keeps its connection alive (broadcast). */
        private final Broadcast broadcast = new Broadcast();

        /** How long a stream keeps its messages (stream). */
        private final StreamProperties stream = new StreamProperties();

        public Type getType() {
            return type;
        }

        public void setType(Type type) {
            this.type = type;
        }

        public Class<?> getPayloadType() {
            return payloadType;
        }

        public void setPayloadType(Class<?> payloadType) {
            this.payloadType = payloadType;
        }

        public String getCodec() {
            return codec;
        }

        public void setCodec(String codec) {
            this.codec = codec;
        }

        public String getKeyPrefix() {
            return keyPrefix;
        }

        public void setKeyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix;
        }

        public Duration getVisibilityTimeout() {
            return visibilityTimeout;
        }

        public void setVisibilityTimeout(Duration visibilityTimeout) {
            this.visibilityTimeout = visibilityTimeout;
        }

        public Integer getMaxAttempts() {
            return maxAttempts;
        }

        public void setMaxAttempts(Integer maxAttempts) {
            this.maxAttempts = maxAttempts;
        }

        public Integer getDeadLetterRetention() {
            return deadLetterRetention;
        }

        public void setDeadLetterRetention(Integer deadLetterRetention) {
            this.deadLetterRetention = deadLetterRetention;
        }

        public Integer getMaxPayloadBytes() {
            return maxPayloadBytes;
        }

        public void setMaxPayloadBytes(Integer maxPayloadBytes) {
            this.maxPayloadBytes = maxPayloadBytes;
        }

        public Duration getBlockTimeout() {
            return blockTimeout;
        }

        public void setBlockTimeout(Duration blockTimeout) {
            this.blockTimeout = blockTimeout;
        }

        public Semantics.Guarantee getGuarantee() {
            return guarantee;
        }

        public void setGuarantee(Semantics.Guarantee guarantee) {
            this.guarantee = guarantee;
        }

        public Integer getShards() {
            return shards;
        }

        public void setShards(Integer shards) {
            this.shards = shards;
        }

        public Boolean getSharded() {
            return sharded;
        }

        public void setSharded(Boolean sharded) {
            this.sharded = sharded;
        }

        public Retry getRetry() {
            return retry;
        }

        public Consumer getConsumer() {
            return consumer;
        }

        public Broadcast getBroadcast() {
            return broadcast;
        }

        public StreamProperties getStream() {
            return stream;
        }
    }

    /** The fetching of a queue's listener methods, as {@code ConsumeOptions} sets it. */
    public static class Consumer {
        /** Messages a worker fetches per round trip, always; unset, adaptive (one while none wait, more while they do). */
        private Integer batchSize;

        /** The longest single blocking fetch before a worker checks whether it was stopped; 1 s by default. */
        private Duration pollTimeout;

        /** How long the leases of held messages are renewed, counted from their fetch; 30 min by default. */
        private Duration leaseRenewalLimit;

        public Integer getBatchSize() {
            return batchSize;
        }

        public void setBatchSize(Integer batchSize) {
            this.batchSize = batchSize;
        }

        public Duration getPollTimeout() {
            return pollTimeout;
        }

        public void setPollTimeout(Duration pollTimeout) {
            this.pollTimeout = pollTimeout;
        }

        public Duration getLeaseRenewalLimit() {
            return leaseRenewalLimit;
        }

        public void setLeaseRenewalLimit(Duration leaseRenewalLimit) {
            this.leaseRenewalLimit = leaseRenewalLimit;
        }

        boolean isSet() {
            return batchSize != null || pollTimeout != null || leaseRenewalLimit != null;
        }
    }

    /** The subscriptions of a broadcast, as the Redis broadcaster's builder sets them. */
    public static class Broadcast {
        /** Messages each subscription holds for its listener before it stops reading; 1024 by default. */
        private Integer bufferCapacity;

        /** Bytes of messages each subscription holds for its listener before it stops reading; 8 MiB by default. */
        private Integer bufferBytes;

        /** How long a subscribed connection may be quiet before it sends a keep-alive; 30 s by default. */
        private Duration keepAliveInterval;

        public Integer getBufferCapacity() {
            return bufferCapacity;
        }

        public void setBufferCapacity(Integer bufferCapacity) {
            this.bufferCapacity = bufferCapacity;
        }

        public Integer getBufferBytes() {
            return bufferBytes;
        }

        public void setBufferBytes(Integer bufferBytes) {
            this.bufferBytes = bufferBytes;
        }

        public Duration getKeepAliveInterval() {
            return keepAliveInterval;
        }

        public void setKeepAliveInterval(Duration keepAliveInterval) {
            this.keepAliveInterval = keepAliveInterval;
        }

        boolean isSet() {
            return bufferCapacity != null || bufferBytes != null || keepAliveInterval != null;
        }
    }

    /** Backoff between attempts of a failed message. */
    public static class Retry {
        static final Duration DEFAULT_INITIAL_BACKOFF = Duration.ofSeconds(1);
        static final Duration DEFAULT_MAX_BACKOFF = Duration.ofMinutes(5);

        /** The wait before the second attempt; 1 s by default. */
        private Duration initialBackoff;

        /** The longest wait, reached by doubling; 5 min by default. */
        private Duration maxBackoff;

        public Duration getInitialBackoff() {
            return initialBackoff;
        }

        public void setInitialBackoff(Duration initialBackoff) {
            this.initialBackoff = initialBackoff;
        }

        public Duration getMaxBackoff() {
            return maxBackoff;
        }

        public void setMaxBackoff(Duration maxBackoff) {
            this.maxBackoff = maxBackoff;
        }

        boolean isSet() {
            return initialBackoff != null || maxBackoff != null;
        }
    }
}
