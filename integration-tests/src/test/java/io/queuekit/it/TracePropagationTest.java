package io.queuekit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import brave.Tracing;
import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.CurrentTraceContext;
import brave.propagation.ThreadLocalCurrentTraceContext;
import brave.propagation.TraceContext;
import brave.sampler.Sampler;
import io.micrometer.observation.ObservationHandler.FirstMatchingCompositeObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BravePropagator;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import io.micrometer.tracing.brave.bridge.W3CPropagation;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.queuekit.Broadcaster;
import io.queuekit.Codec;
import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import io.queuekit.Subscription;
import io.queuekit.inmemory.InMemoryBroadcaster;
import io.queuekit.inmemory.InMemoryDelayQueue;
import io.queuekit.inmemory.InMemoryMessageQueue;
import io.queuekit.micrometer.MicrometerObservations;
import io.queuekit.redis.list.RedisListQueue;
import io.queuekit.redis.pubsub.RedisBroadcaster;
import io.queuekit.redis.zset.RedisDelayQueue;
import io.queuekit.spi.MessageObservations;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.RedisClient;

/**
 * A trace goes through the queue: with {@link MicrometerObservations} on a queue or broadcaster
 * and Micrometer Tracing (the Brave bridge, W3C propagation) in the registry, a send made inside
 * a span stores a {@code traceparent} header, and the consumer's or listener's handling runs in a
 * consumer span of the same trace, a child of the producer span, on each transport.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@RedisServerTest
class TracePropagationTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    private final RedisClient client;
    private final List<MutableSpan> spans = new CopyOnWriteArrayList<>();
    private final CurrentTraceContext braveContext = ThreadLocalCurrentTraceContext.create();
    private final Tracing tracing = Tracing.newBuilder()
            .currentTraceContext(braveContext)
            .traceId128Bit(true)
            .propagationFactory(new W3CPropagation())
            .sampler(Sampler.ALWAYS_SAMPLE)
            .addSpanHandler(new SpanHandler() {
                @Override
                public boolean end(TraceContext context, MutableSpan span, Cause cause) {
                    spans.add(span);
                    return true;
                }
            })
            .build();
    private final Tracer tracer = new BraveTracer(tracing.tracer(), new BraveCurrentTraceContext(braveContext));
    private final MessageObservations observations;

    TracePropagationTest(RedisClient client) {
        this.client = client;
        BravePropagator propagator = new BravePropagator(tracing);
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig()
                .observationHandler(new FirstMatchingCompositeObservationHandler(List.of(
                        new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
                        new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
                        new DefaultTracingObservationHandler(tracer))));
        this.observations = MicrometerObservations.of(registry);
    }

    @AfterEach
    void close() {
        tracing.close();
    }

    /** The queue transports, each built with the test's observations. */
    enum QueueTransport {
        IN_MEMORY,
        IN_MEMORY_DELAY,
        REDIS_LIST,
        REDIS_ZSET;

        MessageQueue<String> build(RedisClient client, String name, MessageObservations observations) {
            switch (this) {
                case IN_MEMORY:
                    return InMemoryMessageQueue.<String>builder(name)
                            .observations(observations)
                            .build();
                case IN_MEMORY_DELAY:
                    return InMemoryDelayQueue.<String>builder(name)
                            .observations(observations)
                            .build();
                case REDIS_LIST:
                    return RedisListQueue.builder(client, name, Codec.utf8())
                            .observations(observations)
                            .build();
                default:
                    return RedisDelayQueue.builder(client, name, Codec.utf8())
                            .observations(observations)
                            .build();
            }
        }
    }

    /** The broadcast transports, each built with the test's observations. */
    enum BroadcastTransport {
        IN_MEMORY,
        REDIS_PUBSUB;

        Broadcaster<String> build(RedisClient client, String name, MessageObservations observations) {
            return this == IN_MEMORY
                    ? InMemoryBroadcaster.<String>builder(name)
                            .observations(observations)
                            .build()
                    : RedisBroadcaster.builder(client, name, Codec.utf8())
                            .observations(observations)
                            .build();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(QueueTransport.class)
    void aSendInASpan_isConsumedInAChildSpanOfTheSameTrace(QueueTransport transport) throws Exception {
        String name = unique("traced-" + transport);
        List<String> handlerTraces = new CopyOnWriteArrayList<>();
        try (MessageQueue<String> queue = transport.build(client, name, observations)) {
            Span request = inSpan("checkout", () -> queue.send("order-1"));
            try (Subscription consumer = queue.consume(
                    delivery -> handlerTraces.add(tracer.currentSpan().context().traceId()))) {
                await().atMost(WAIT).until(() -> find("process " + name) != null);
            }

            MutableSpan producer = find("send " + name);
            MutableSpan handled = find("process " + name);
            String trace = request.context().traceId();
            assertThat(producer.traceId()).isEqualTo(trace);
            assertThat(producer.parentId()).isEqualTo(request.context().spanId());
            assertThat(producer.kind()).isEqualTo(brave.Span.Kind.PRODUCER);
            assertThat(producer.tags()).containsEntry("queue", name).containsEntry("kind", "queue");
            assertThat(handled.traceId()).isEqualTo(trace);
            assertThat(handled.parentId()).isEqualTo(producer.id());
            assertThat(handled.kind()).isEqualTo(brave.Span.Kind.CONSUMER);
            assertThat(handled.tags())
                    .containsEntry("queue", name)
                    .containsEntry("transport", queue.semantics().transport())
                    .containsEntry("outcome", "success");
            assertThat(handlerTraces).containsExactly(trace);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(QueueTransport.class)
    void aSendInASpan_storesTheW3cTraceparent(QueueTransport transport) throws Exception {
        String name = unique("traceparent-" + transport);
        try (MessageQueue<String> queue = transport.build(client, name, observations)) {
            inSpan("checkout", () -> queue.send("order-1"));
            Delivery<String> delivery = queue.poll(10, TimeUnit.SECONDS);

            MutableSpan producer = find("send " + name);
            assertThat(delivery.headers().get("traceparent"))
                    .isEqualTo("00-" + producer.traceId() + "-" + producer.id() + "-01");
            delivery.ack();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(BroadcastTransport.class)
    void aPublishInASpan_isHandledInAChildSpanOfTheSameTrace(BroadcastTransport transport) throws Exception {
        String name = unique("traced-" + transport);
        List<String> handlerTraces = new CopyOnWriteArrayList<>();
        try (Broadcaster<String> prices = transport.build(client, name, observations);
                Subscription listener = prices.subscribeWithHeaders((price, headers) ->
                        handlerTraces.add(tracer.currentSpan().context().traceId()))) {
            Span request = inSpan("reprice", () -> prices.publish("42"));
            await().atMost(WAIT).until(() -> find("process " + name) != null);

            MutableSpan producer = find("send " + name);
            MutableSpan handled = find("process " + name);
            String trace = request.context().traceId();
            assertThat(producer.traceId()).isEqualTo(trace);
            assertThat(producer.tags()).containsEntry("kind", "broadcast");
            assertThat(handled.traceId()).isEqualTo(trace);
            assertThat(handled.parentId()).isEqualTo(producer.id());
            assertThat(handled.kind()).isEqualTo(brave.Span.Kind.CONSUMER);
            assertThat(handlerTraces).containsExactly(trace);
        }
    }

    @Test
    void aHandlerFailure_isRecordedOnTheConsumerSpan() throws Exception {
        String name = unique("failing");
        try (MessageQueue<String> queue = QueueTransport.IN_MEMORY.build(client, name, observations)) {
            inSpan("checkout", () -> queue.send("order-1"));
            try (Subscription consumer = queue.consume(delivery -> {
                throw new IllegalStateException("payment service down");
            })) {
                await().atMost(WAIT).until(() -> find("process " + name) != null);
            }

            MutableSpan handled = find("process " + name);
            assertThat(handled.error()).hasMessage("payment service down");
            assertThat(handled.tags()).containsEntry("outcome", "failure");
        }
    }

    /** Runs {@code work} in a new span, current on this thread, and returns the span, ended. */
    private Span inSpan(String name, Runnable work) {
        Span span = tracer.nextSpan().name(name).start();
        try (Tracer.SpanInScope scope = tracer.withSpan(span)) {
            work.run();
        } finally {
            span.end();
        }
        return span;
    }

    /** The first finished span named {@code name}, or null. */
    private MutableSpan find(String name) {
        return spans.stream().filter(s -> name.equals(s.name())).findFirst().orElse(null);
    }

    private static String unique(String name) {
        return name.toLowerCase(Locale.ROOT).replace('_', '-') + "-"
                + UUID.randomUUID().toString().substring(0, 8);
    }
}
