package io.queuekit.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.exporter.FinishedSpan;
import io.micrometer.tracing.exporter.SpanReporter;
import io.queuekit.Broadcaster;
import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import io.queuekit.micrometer.MicrometerObservations;
import io.queuekit.micrometer.QueueProcessContext;
import io.queuekit.micrometer.QueueProcessObservationConvention;
import io.queuekit.spi.MessageObservations;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.GeneratedFiles.Kind;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration;
import org.springframework.boot.micrometer.tracing.brave.autoconfigure.BraveAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.javapoet.ClassName;

/**
 * Observations through the starter: with Spring Boot's Observation and Micrometer Tracing
 * auto-configuration (the Brave bridge, W3C propagation, as an application with the Actuator and
 * {@code micrometer-tracing-bridge-brave} has it), a send made in a span is handled by the
 * {@code @QueueListener} or {@code @BroadcastListener} method in a consumer span of the same trace.
 */
@RedisServerTest
@Timeout(60)
class ObservationsTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private final RedisServer server;

    ObservationsTest(RedisServer server) {
        this.server = server;
    }

    /** Keeps the spans the tracer finishes, as an exporter would send them. */
    static final class Spans implements SpanReporter {
        final List<FinishedSpan> finished = new CopyOnWriteArrayList<>();

        @Override
        public void report(FinishedSpan span) {
            finished.add(span);
        }

        FinishedSpan named(String name) {
            return finished.stream()
                    .filter(s -> name.equals(s.getName()))
                    .findFirst()
                    .orElse(null);
        }
    }

    /** Notes the trace each message was handled in. */
    static class TracedListeners {
        private final Tracer tracer;
        final List<String> orderTraces = new CopyOnWriteArrayList<>();
        final List<String> priceTraces = new CopyOnWriteArrayList<>();

        TracedListeners(Tracer tracer) {
            this.tracer = tracer;
        }

        @QueueListener(queue = "orders")
        void handle(String order) {
            orderTraces.add(tracer.currentSpan().context().traceId());
        }

        @BroadcastListener(channel = "prices")
        void onPrice(String price) {
            priceTraces.add(tracer.currentSpan().context().traceId());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(TracedListeners.class)
    static class Listeners {}

    /** A listener whose failures dead-letter at once, settled by the starter, not the consumer. */
    static class RefusingListener {
        @QueueListener(queue = "orders", noRetryFor = IllegalArgumentException.class)
        void handle(String order) {
            throw new IllegalArgumentException("no such product in " + order);
        }
    }

    @Test
    void aListenerFailureSettledByNoRetryFor_endsItsSpanAsAFailure_withTheException() {
        traced().withUserConfiguration(RefusingListener.class).run(context -> {
            @SuppressWarnings("unchecked")
            MessageQueue<String> orders = context.getBean("orders", MessageQueue.class);
            Spans spans = context.getBean(Spans.class);
            inSpan(context.getBean(Tracer.class), () -> orders.send("order-1"));

            await().atMost(WAIT).until(() -> spans.named("process orders") != null);
            FinishedSpan consumer = spans.named("process orders");
            assertThat(consumer.getTags()).containsEntry("outcome", "failure");
            assertThat(consumer.getError()).isInstanceOf(IllegalArgumentException.class);
            await().atMost(WAIT).until(() -> orders.deadLetters().size() == 1);
        });
    }

    /** An application on Redis with the Actuator's observations and Brave tracing every request. */
    private ApplicationContextRunner traced() {
        String prefix = Contexts.unique("observed");
        return Contexts.on(server)
                .withConfiguration(AutoConfigurations.of(
                        ObservationAutoConfiguration.class,
                        MicrometerTracingAutoConfiguration.class,
                        BraveAutoConfiguration.class))
                .withBean(Spans.class)
                .withPropertyValues(
                        "management.tracing.sampling.probability=1.0",
                        "queuekit.queues.orders.key-prefix=" + prefix,
                        "queuekit.queues.prices.type=broadcast",
                        "queuekit.queues.prices.key-prefix=" + prefix);
    }

    /** Runs {@code work} in a new span, current on this thread, and returns the span, ended. */
    private static Span inSpan(Tracer tracer, Runnable work) {
        Span span = tracer.nextSpan().name("checkout").start();
        try (Tracer.SpanInScope scope = tracer.withSpan(span)) {
            work.run();
        } finally {
            span.end();
        }
        return span;
    }

    @Test
    void aSendInASpan_isHandledByTheQueueListener_inAChildSpanOfTheSameTrace() {
        traced().withUserConfiguration(Listeners.class).run(context -> assertTraced(context, "orders"));
    }

    @Test
    void inMemory_aSendInASpan_isHandledByTheQueueListener_inTheSameTrace() {
        traced().withUserConfiguration(Listeners.class)
                .withPropertyValues("queuekit.transport=in-memory")
                .run(context -> assertTraced(context, "orders"));
    }

    @Test
    void aPublishInASpan_isHandledByTheBroadcastListener_inAChildSpanOfTheSameTrace() {
        traced().withUserConfiguration(Listeners.class).run(context -> assertTraced(context, "prices"));
    }

    private static void assertTraced(org.springframework.context.ApplicationContext context, String queue) {
        Tracer tracer = context.getBean(Tracer.class);
        Spans spans = context.getBean(Spans.class);
        TracedListeners listeners = context.getBean(TracedListeners.class);
        Span request;
        List<String> handled;
        if (queue.equals("prices")) {
            @SuppressWarnings("unchecked")
            Broadcaster<String> prices = context.getBean("prices", Broadcaster.class);
            request = inSpan(tracer, () -> prices.publish("EUR 1.08"));
            handled = listeners.priceTraces;
        } else {
            @SuppressWarnings("unchecked")
            MessageQueue<String> orders = context.getBean("orders", MessageQueue.class);
            request = inSpan(tracer, () -> orders.send("order-1"));
            handled = listeners.orderTraces;
        }
        await().atMost(WAIT).until(() -> spans.named("process " + queue) != null);

        String trace = request.context().traceId();
        FinishedSpan producer = spans.named("send " + queue);
        FinishedSpan consumer = spans.named("process " + queue);
        assertThat(producer.getTraceId()).isEqualTo(trace);
        assertThat(producer.getParentId()).isEqualTo(request.context().spanId());
        assertThat(producer.getKind()).isEqualTo(Span.Kind.PRODUCER);
        assertThat(consumer.getTraceId()).isEqualTo(trace);
        assertThat(consumer.getParentId()).isEqualTo(producer.getSpanId());
        assertThat(consumer.getKind()).isEqualTo(Span.Kind.CONSUMER);
        assertThat(consumer.getTags()).containsEntry("queue", queue).containsEntry("outcome", "success");
        assertThat(handled).containsExactly(trace);
    }

    @Test
    void aSentMessage_carriesTheW3cTraceparent() {
        traced().run(context -> {
            @SuppressWarnings("unchecked")
            MessageQueue<String> orders = context.getBean("orders", MessageQueue.class);
            inSpan(context.getBean(Tracer.class), () -> orders.send("order-1"));

            Delivery<String> delivery = orders.poll(10, TimeUnit.SECONDS);
            FinishedSpan producer = context.getBean(Spans.class).named("send orders");
            assertThat(delivery.headers().get("traceparent"))
                    .isEqualTo("00-" + producer.getTraceId() + "-" + producer.getSpanId() + "-01");
            delivery.ack();
        });
    }

    @Test
    void aProcessConventionBean_namesTheListenersSpans() {
        traced().withUserConfiguration(Listeners.class)
                .withBean(QueueProcessObservationConvention.class, () -> new QueueProcessObservationConvention() {
                    @Override
                    public String getContextualName(QueueProcessContext context) {
                        return "handle " + context.getDestination().name();
                    }
                })
                .run(context -> {
                    @SuppressWarnings("unchecked")
                    MessageQueue<String> orders = context.getBean("orders", MessageQueue.class);
                    orders.send("order-1");
                    Spans spans = context.getBean(Spans.class);
                    await().atMost(WAIT).until(() -> spans.named("handle orders") != null);
                    assertThat(spans.named("handle orders").getTags()).containsEntry("queue", "orders");
                    assertThat(spans.named("process orders")).isNull();
                });
    }

    @Test
    void observationsEnabledFalse_observesNothing_andAddsNoHeaders() {
        traced().withPropertyValues("queuekit.observations.enabled=false").run(context -> {
            @SuppressWarnings("unchecked")
            MessageQueue<String> orders = context.getBean("orders", MessageQueue.class);
            inSpan(context.getBean(Tracer.class), () -> orders.send("order-1"));

            Delivery<String> delivery = orders.poll(10, TimeUnit.SECONDS);
            assertThat(delivery.headers().isEmpty()).isTrue();
            delivery.ack();
            assertThat(context.getBean(Spans.class).finished)
                    .extracting(FinishedSpan::getName)
                    .containsExactly("checkout");
        });
    }

    @Test
    void withAnObservationRegistry_theQueuesGetMicrometerObservations() {
        traced().run(context ->
                assertThat(context.getBean(MessageObservations.class)).isInstanceOf(MicrometerObservations.class));
    }

    @Test
    void withoutAnObservationRegistry_thereAreNoObservations() {
        Contexts.on(server)
                .withPropertyValues("queuekit.queues.orders.key-prefix=" + Contexts.unique("unobserved"))
                .run(context ->
                        assertThat(context.getBean(MessageObservations.class)).isSameAs(MessageObservations.NONE));
    }

    @Test
    void aMisspeltObservationsProperty_failsStartUp_namingTheRightOne() {
        traced().withPropertyValues("queuekit.observations.enable=false")
                .run(ConfigurationErrorsTest.failsWith(
                        "queuekit.observations.enable", "did you mean queuekit.observations.enabled?"));
    }

    @Test
    void aheadOfTimeProcessing_writesTheObservationsBean_asAFactoryMethod() {
        DefaultGenerationContext generated = new DefaultGenerationContext(
                new ClassNameGenerator(ClassName.get(ObservationsTest.class)), new InMemoryGeneratedFiles());
        traced().withPropertyValues("queuekit.transport=in-memory")
                .prepare(context -> new ApplicationContextAotGenerator()
                        .processAheadOfTime(
                                (GenericApplicationContext) context.getSourceApplicationContext(), generated));
        generated.writeGeneratedContent();

        List<String> sources = new ArrayList<>();
        ((InMemoryGeneratedFiles) generated.getGeneratedFiles())
                .getGeneratedFiles(Kind.SOURCE)
                .values()
                .forEach(source -> {
                    try (var in = source.getInputStream()) {
                        sources.add(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
        assertThat(String.join("\n", sources))
                .contains("forFactoryMethod(QueuekitAutoConfiguration.ObservationConfiguration.class, "
                        + "\"queuekitMessageObservations\"");
    }
}
