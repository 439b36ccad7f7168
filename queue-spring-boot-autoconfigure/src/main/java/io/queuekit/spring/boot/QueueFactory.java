package io.queuekit.spring.boot;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.jackson3.Jackson3Codec;
import io.queuekit.redis.RedisQueueBuilder;
import io.queuekit.redis.list.RedisListQueue;
import io.queuekit.redis.pubsub.RedisBroadcaster;
import io.queuekit.redis.stream.RedisStreamTopic;
import io.queuekit.redis.zset.RedisDelayQueue;
import io.queuekit.spi.MessageObservations;
import io.queuekit.spi.QueueMetrics;
import io.queuekit.spring.boot.QueueDefinitions.Definition;
import io.queuekit.spring.boot.QueuekitProperties.Queue;
import io.queuekit.spring.boot.QueuekitProperties.Transport;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.core.ResolvableType;
import redis.clients.jedis.UnifiedJedis;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.type.TypeFactory;

/**
 * Builds the queue each {@link Definition} describes, on Redis or in memory, with the payload codec
 * for its type and the application's metrics and observations. A setting the transport refuses, or
 * one that does not apply to the queue's type, fails with {@link QueueConfigurationException}
 * naming the property.
 */
final class QueueFactory {
    private final QueueDefinitions definitions;
    private final Transport transport;
    /** Null with the in-memory transport. */
    private final UnifiedJedis client;

    private final JsonMapper mapper;
    private final QueueMetrics metrics;
    private final MessageObservations observations;
    private final java.util.function.Supplier<Clock> clock;
    private final BroadcastSubscriptions broadcasts;
    private final List<QueueBuilderCustomizer> customizers;
    /** Where {@code codec} names its beans. */
    private final ListableBeanFactory beans;

    QueueFactory(
            QueueDefinitions definitions,
            Transport transport,
            UnifiedJedis client,
            JsonMapper mapper,
            QueueMetrics metrics,
            MessageObservations observations,
            java.util.function.Supplier<Clock> clock,
            BroadcastSubscriptions broadcasts,
            List<QueueBuilderCustomizer> customizers,
            ListableBeanFactory beans) {
        this.broadcasts = broadcasts;
        this.beans = beans;
        this.definitions = definitions;
        this.transport = transport;
        this.client = client;
        this.mapper = mapper;
        this.metrics = metrics;
        this.observations = observations;
        this.clock = clock;
        this.customizers = List.copyOf(customizers);
    }

    /**
     * The queue named {@code name} under {@code queuekit.queues}: the factory method of the queue beans,
     * which ahead-of-time processing writes out as a call with the name.
     */
    Object queue(String name) {
        Definition queue = definitions.queues.get(name);
        if (queue == null) {
            throw new IllegalStateException("no queue '" + name + "' in " + definitions.queues.keySet());
        }
        return create(queue);
    }

    /**
     * A {@code MessageQueue}, {@code DelayQueue}, {@code Broadcaster} or {@code Topic}, as the
     * definition's type says.
     */
    Object create(Definition queue) {
        checkApplicable(queue);
        if (queue.type() != QueuekitProperties.Type.BROADCAST) {
            consumeOptions(queue);
        }
        Codec<?> codec = codec(queue);
        return transport == Transport.IN_MEMORY
                ? InMemoryQueues.create(queue, codec, metrics, observations, clock.get())
                : redis(queue, codec);
    }

    /** The queue's payload codec: the bean {@code codec} names, else one for its payload type. */
    Codec<?> codec(Definition queue) {
        return queue.settings().getCodec() != null ? namedCodec(queue) : codec(queue.payloadType());
    }

    /** The bean that {@code codec} names, if it is a {@code Codec} that may take the queue's payloads. */
    private Codec<?> namedCodec(Definition queue) {
        String name = queue.settings().getCodec();
        String property = queue.property("codec") + "=" + name;
        List<String> codecs = Arrays.asList(beans.getBeanNamesForType(Codec.class));
        if (!beans.containsBean(name)) {
            throw new QueueConfigurationException(
                    property + " names no bean; the Codec beans are " + codecs,
                    "Define a bean of type io.queuekit.Codec named " + name + ", or correct " + queue.property("codec")
                            + ".");
        }
        if (!beans.isTypeMatch(name, Codec.class)) {
            throw new QueueConfigurationException(
                    property + " names a bean of type " + beans.getType(name) + ", not an io.queuekit.Codec"
                            + "; the Codec beans are " + codecs,
                    "Name a bean of type io.queuekit.Codec in " + queue.property("codec") + ".");
        }
        ResolvableType wanted = ResolvableType.forClassWithGenerics(Codec.class, queue.payloadType());
        if (!beans.isTypeMatch(name, wanted)) {
            throw new QueueConfigurationException(
                    property + " names a codec of another payload type than the queue's "
                            + QueueDefinitions.name(queue.payloadType()),
                    "Name a Codec<" + QueueDefinitions.simpleName(queue.payloadType()) + "> in "
                            + queue.property("codec") + ", or change " + queue.property("payload-type") + ".");
        }
        return beans.getBean(name, Codec.class);
    }

    /** The consumer options of the queue's listeners, from {@code retry.*} and {@code consumer.*}; checked when the queue is built. */
    static ConsumeOptions.Builder consumeOptions(Definition queue) {
        QueuekitProperties.Retry retry = queue.settings().getRetry();
        Duration initial = retry.getInitialBackoff() != null
                ? retry.getInitialBackoff()
                : QueuekitProperties.Retry.DEFAULT_INITIAL_BACKOFF;
        Duration max = retry.getMaxBackoff() != null
                ? retry.getMaxBackoff()
                : QueuekitProperties.Retry.DEFAULT_MAX_BACKOFF.compareTo(initial) < 0
                        ? initial
                        : QueuekitProperties.Retry.DEFAULT_MAX_BACKOFF;
        ConsumeOptions.Builder options;
        try {
            options = ConsumeOptions.builder().backoff(initial, max);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new QueueConfigurationException(
                    queue.property("retry.initial-backoff") + "=" + initial
                            + " and " + queue.property("retry.max-backoff") + "=" + max
                            + " are refused: "
                            + e.getMessage(),
                    "Correct " + queue.property("retry.*") + ".",
                    e);
        }
        QueuekitProperties.Consumer consumer = queue.settings().getConsumer();
        set(queue, "consumer.batch-size", consumer.getBatchSize(), options::batchSize);
        set(queue, "consumer.poll-timeout", consumer.getPollTimeout(), options::pollTimeout);
        set(queue, "consumer.lease-renewal-limit", consumer.getLeaseRenewalLimit(), options::leaseRenewalLimit);
        return options;
    }

    /** Strings and bytes as they are; anything else as JSON, decoded into the full type, type arguments included. */
    private Codec<?> codec(ResolvableType type) {
        if (type.getType() == String.class) {
            return Codec.utf8();
        }
        if (type.getType() == byte[].class) {
            return Codec.bytes();
        }
        return Jackson3Codec.of(mapper, javaType(type));
    }

    private JavaType javaType(ResolvableType type) {
        TypeFactory types = mapper.getTypeFactory();
        if (type.isArray()) {
            return types.constructArrayType(javaType(type.getComponentType()));
        }
        if (type.getType() instanceof Class<?> c) {
            return types.constructType(c);
        }
        return types.constructParametricType(
                type.toClass(),
                Arrays.stream(type.getGenerics()).map(this::javaType).toArray(JavaType[]::new));
    }

    private <T> Object redis(Definition queue, Codec<T> codec) {
        Queue s = queue.settings();
        if (queue.type() == QueuekitProperties.Type.STREAM) {
            RedisStreamTopic.Builder<T> b = RedisStreamTopic.builder(client, queue.name(), codec)
                    .metrics(metrics)
                    .observations(observations);
            set(queue, "key-prefix", s.getKeyPrefix(), b::keyPrefix);
            set(queue, "visibility-timeout", s.getVisibilityTimeout(), b::visibilityTimeout);
            set(queue, "max-attempts", s.getMaxAttempts(), b::maxAttempts);
            set(queue, "dead-letter-retention", s.getDeadLetterRetention(), b::deadLetterRetention);
            set(queue, "max-payload-bytes", s.getMaxPayloadBytes(), b::maxPayloadBytes);
            set(queue, "block-timeout", s.getBlockTimeout(), b::blockTimeout);
            set(queue, "shards", s.getShards(), b::shards);
            StreamProperties stream = s.getStream();
            set(queue, "stream.max-length", stream.getMaxLength(), b::maxLength);
            set(queue, "stream.max-age", stream.getMaxAge(), b::maxAge);
            set(queue, "stream.hard-max-length", stream.getHardMaxLength(), b::hardMaxLength);
            customize(queue, b);
            return b.build();
        }
        if (queue.type() == QueuekitProperties.Type.BROADCAST) {
            RedisBroadcaster.Builder<T> b = RedisBroadcaster.builder(client, queue.name(), codec)
                    .metrics(metrics)
                    .observations(observations);
            b.onGap(broadcasts.onGap(queue.name()));
            set(queue, "key-prefix", s.getKeyPrefix(), b::keyPrefix);
            set(queue, "max-payload-bytes", s.getMaxPayloadBytes(), b::maxPayloadBytes);
            set(queue, "sharded", s.getSharded(), b::sharded);
            QueuekitProperties.Broadcast broadcast = s.getBroadcast();
            set(queue, "broadcast.buffer-capacity", broadcast.getBufferCapacity(), b::bufferCapacity);
            set(queue, "broadcast.buffer-bytes", broadcast.getBufferBytes(), b::bufferBytes);
            set(queue, "broadcast.keep-alive-interval", broadcast.getKeepAliveInterval(), b::keepAliveInterval);
            customize(queue, b);
            return b.build();
        }
        if (queue.type() == QueuekitProperties.Type.DELAY) {
            RedisDelayQueue.Builder<T> b = RedisDelayQueue.builder(client, queue.name(), codec);
            common(queue, b);
            customize(queue, b);
            return b.build();
        }
        RedisListQueue.Builder<T> b = RedisListQueue.builder(client, queue.name(), codec);
        common(queue, b);
        set(queue, "guarantee", s.getGuarantee(), b::guarantee);
        customize(queue, b);
        return b.build();
    }

    private void customize(Definition queue, Object builder) {
        for (QueueBuilderCustomizer customizer : customizers) {
            customizer.customize(queue.name(), builder);
        }
    }

    private void common(Definition queue, RedisQueueBuilder<?, ?> b) {
        Queue s = queue.settings();
        b.metrics(metrics);
        b.observations(observations);
        set(queue, "key-prefix", s.getKeyPrefix(), b::keyPrefix);
        set(queue, "visibility-timeout", s.getVisibilityTimeout(), b::visibilityTimeout);
        set(queue, "max-attempts", s.getMaxAttempts(), b::maxAttempts);
        set(queue, "dead-letter-retention", s.getDeadLetterRetention(), b::deadLetterRetention);
        set(queue, "max-payload-bytes", s.getMaxPayloadBytes(), b::maxPayloadBytes);
        set(queue, "block-timeout", s.getBlockTimeout(), b::blockTimeout);
        set(queue, "shards", s.getShards(), b::shards);
    }

    /** Applies one setting, turning the builder's refusal into an error that names the property. */
    static <V> void set(Definition queue, String setting, V value, Consumer<? super V> setter) {
        if (value == null) {
            return;
        }
        try {
            setter.accept(value);
        } catch (IllegalArgumentException e) {
            throw new QueueConfigurationException(
                    queue.property(setting) + "=" + value + " is refused: " + e.getMessage(),
                    "Correct " + queue.property(setting) + ".",
                    e);
        }
    }

    /** Settings that mean nothing for the queue's type are refused rather than ignored. */
    private static void checkApplicable(Definition queue) {
        Queue s = queue.settings();
        String queues = "list and delay queues and streams";
        switch (queue.type()) {
            case BROADCAST -> {
                refuse(queue, "visibility-timeout", s.getVisibilityTimeout(), queues);
                refuse(queue, "max-attempts", s.getMaxAttempts(), queues);
                refuse(queue, "dead-letter-retention", s.getDeadLetterRetention(), queues);
                refuse(queue, "block-timeout", s.getBlockTimeout(), queues);
                refuse(queue, "shards", s.getShards(), "list and delay queues and streams");
                refuse(queue, "guarantee", s.getGuarantee(), "list queues");
                refuse(queue, "retry.*", s.getRetry().isSet() ? s.getRetry() : null, queues);
                refuse(queue, "consumer.*", s.getConsumer().isSet() ? s.getConsumer() : null, queues);
                refuse(queue, "stream.*", s.getStream().isSet() ? s.getStream() : null, "streams");
            }
            case STREAM -> {
                checkStreamLengths(queue);
                refuse(queue, "guarantee", s.getGuarantee(), "list queues (a stream's groups are at-least-once)");
                refuse(queue, "sharded", s.getSharded(), "broadcasts");
                refuse(queue, "broadcast.*", s.getBroadcast().isSet() ? s.getBroadcast() : null, "broadcasts");
            }
            case LIST, DELAY -> {
                refuse(queue, "sharded", s.getSharded(), "broadcasts");
                refuse(queue, "broadcast.*", s.getBroadcast().isSet() ? s.getBroadcast() : null, "broadcasts");
                refuse(queue, "stream.*", s.getStream().isSet() ? s.getStream() : null, "streams");
                if (queue.type() == QueuekitProperties.Type.DELAY) {
                    refuse(queue, "guarantee", s.getGuarantee(), "list queues (a delay queue is at-least-once)");
                }
            }
        }
    }

    /** A soft limit above the hard one, refused naming both (the Redis builder refuses it too, naming neither). */
    private static void checkStreamLengths(Definition queue) {
        StreamProperties stream = queue.settings().getStream();
        Long soft = stream.getMaxLength();
        Long hard = stream.getHardMaxLength();
        if (soft != null && hard != null && soft > hard) {
            throw new QueueConfigurationException(
                    queue.property("stream.max-length") + "=" + soft + " is above "
                            + queue.property("stream.hard-max-length") + "=" + hard
                            + ": the hard limit would remove what the soft one keeps",
                    "Lower " + queue.property("stream.max-length") + " to at most the hard max length, or leave "
                            + "one of them unset.");
        }
    }

    private static void refuse(Definition queue, String setting, Object value, String appliesTo) {
        if (value != null) {
            throw new QueueConfigurationException(
                    queue.property(setting) + " is set, but it applies to " + appliesTo + ", and "
                            + queue.property("type") + " is " + QueueDefinitions.lower(queue.type()),
                    "Remove " + queue.property(setting) + " or change the queue's type.");
        }
    }
}
