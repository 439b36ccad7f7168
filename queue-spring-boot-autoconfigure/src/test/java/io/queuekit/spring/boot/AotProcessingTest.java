package io.queuekit.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.spring.boot.aot.HiddenPayload;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.GeneratedFiles.Kind;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.io.InputStreamSource;
import org.springframework.javapoet.ClassName;
import org.springframework.mock.env.MockEnvironment;

/**
 * Ahead-of-time processing of an application with queues, as {@code spring-boot:process-aot} does
 * it: the bean definitions are written out as code and the hints a native image needs are there.
 * queue-examples/spring-boot-orders starts an application so processed.
 */
@Timeout(60)
class AotProcessingTest {

    static class Handlers {
        @QueueListener(queue = "orders", concurrency = "${orders.concurrency:2}")
        void handle(Order order) {}

        @BroadcastListener(channel = "prices")
        void onPrice(String price) {}
    }

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class, QueuekitAutoConfiguration.class))
            .withBean("handlers", Handlers.class)
            .withPropertyValues(
                    "queuekit.transport=in-memory",
                    "queuekit.queues.orders.type=list",
                    "queuekit.queues.reminders.type=delay",
                    "queuekit.queues.prices.type=broadcast");

    /** Processes the context ahead of time and returns what was generated. */
    private static DefaultGenerationContext process(ApplicationContextRunner runner) {
        DefaultGenerationContext generated = new DefaultGenerationContext(
                new ClassNameGenerator(ClassName.get(AotProcessingTest.class)), new InMemoryGeneratedFiles());
        runner.prepare(context -> new ApplicationContextAotGenerator()
                .processAheadOfTime((GenericApplicationContext) context.getSourceApplicationContext(), generated));
        generated.writeGeneratedContent();
        return generated;
    }

    private static String sources(DefaultGenerationContext generated) {
        InMemoryGeneratedFiles files = (InMemoryGeneratedFiles) generated.getGeneratedFiles();
        List<String> sources = new ArrayList<>();
        files.getGeneratedFiles(Kind.SOURCE).values().forEach(source -> sources.add(read(source)));
        return String.join("\n", sources);
    }

    private static String read(InputStreamSource source) {
        try (var in = source.getInputStream()) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void queueBeans_areWrittenOut_withFactoryMethod_genericType_qualifierAndAlias() {
        String code = sources(process(runner));

        assertThat(code)
                .contains("\"queuekitQueueDefinitions\"")
                .contains("forFactoryMethod(QueueRegistrar.class, \"definitions\"")
                .contains("forFactoryMethod(QueueFactory.class, \"queue\", String.class)")
                .contains("ResolvableType.forClassWithGenerics(MessageQueue.class, Order.class)")
                .contains("ResolvableType.forClassWithGenerics(DelayQueue.class, String.class)")
                .contains("ResolvableType.forClassWithGenerics(Broadcaster.class, String.class)")
                .contains(
                        "new AutowireCandidateQualifier(\"org.springframework.beans.factory.annotation.Qualifier\", \"orders\")")
                .contains("registerAlias(\"ordersQueue\", \"orders\")")
                .contains("\"handlers\", \"" + Handlers.class.getName() + "\"");
        // the registrar is not run again: its registrations are in the code
        assertThat(code).doesNotContain("queuekitQueueRegistrar");
    }

    @Test
    void hints_coverListenerMethods_payloadTypes_andLuaScripts() throws Exception {
        RuntimeHints hints = process(runner).getRuntimeHints();

        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Handlers.class, "handle"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Handlers.class, "onPrice"))
                .accepts(hints);
        // the JSON codec binds the record through its constructor and accessors
        assertThat(RuntimeHintsPredicates.reflection().onType(Order.class)).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Order.class, "cents"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection()
                        .onConstructorInvocation(Order.class.getDeclaredConstructors()[0]))
                .accepts(hints);
        for (String script : List.of(
                "io/queuekit/redis/list/claim.lua",
                "io/queuekit/redis/list/includes/hold.lua",
                "io/queuekit/redis/zset/send.lua",
                "io/queuekit/redis/lua/dead_list.lua",
                "io/queuekit/redis/lua/includes/int.lua")) {
            assertThat(RuntimeHintsPredicates.resource().forResource(script))
                    .as(script)
                    .accepts(hints);
        }
    }

    static class Reports {
        @QueueSchedule(name = "nightly-report", cron = "0 30 2 * * *", zone = "Europe/Berlin")
        void nightly(java.time.Instant tick) {}
    }

    @Test
    void schedules_areProcessed_theScheduleQueueWrittenOut_andTheMethodHinted() {
        ApplicationContextRunner scheduled = runner.withBean("reports", Reports.class)
                .withPropertyValues(
                        "queuekit.schedules.hourly.queue=reminders",
                        "queuekit.schedules.hourly.every=1h",
                        "queuekit.schedules.hourly.headers.source=aot");
        DefaultGenerationContext generated = process(scheduled);
        String code = sources(generated);

        assertThat(code)
                .contains("\"queuekit-schedulesQueue\"")
                .contains("ResolvableType.forClassWithGenerics(DelayQueue.class, String.class)")
                .contains("setDefaultCandidate(false)")
                .contains("\"reports\", \"" + Reports.class.getName() + "\"");
        RuntimeHints hints = generated.getRuntimeHints();
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Reports.class, "nightly"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(ScheduleProperties.class))
                .accepts(hints);
    }

    @Test
    void runTime_findsTheScheduleMethods_ofTheBeansProcessed() {
        MockEnvironment environment = new MockEnvironment().withProperty("queuekit.queues.reminders.type", "delay");
        Map<String, String> listeners = Map.of("reports", Reports.class.getName());
        Map<String, String> processed = Map.of(
                "queuekit-schedules",
                "io.queuekit.DelayQueue<java.lang.String>",
                "reminders",
                "io.queuekit.DelayQueue<java.lang.String>");

        QueueDefinitions definitions =
                QueueRegistrar.definitions(environment, new DefaultListableBeanFactory(), listeners, processed);

        assertThat(definitions.scheduledMethods).containsOnlyKeys("nightly-report");
        assertThat(definitions.scheduleQueue).isEqualTo("queuekit-schedules");
    }

    static class StreamHandlers {
        @QueueListener(queue = "events", group = "${events.group:billing}", concurrency = "2")
        void bill(Order event) {}

        @BroadcastListener(channel = "events")
        void watch(Order event) {}
    }

    @Test
    void aStreamAndItsGroupListener_areProcessed_theTopicWrittenOut_andTheMethodsHinted() {
        ApplicationContextRunner streams = runner.withBean("streamHandlers", StreamHandlers.class)
                .withPropertyValues("queuekit.queues.events.type=stream");
        DefaultGenerationContext generated = process(streams);
        String code = sources(generated);

        assertThat(code)
                .contains("\"eventsTopic\"")
                .contains("ResolvableType.forClassWithGenerics(Topic.class, Order.class)")
                .contains("registerAlias(\"eventsTopic\", \"events\")")
                .contains("\"streamHandlers\", \"" + StreamHandlers.class.getName() + "\"");
        RuntimeHints hints = generated.getRuntimeHints();
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(StreamHandlers.class, "bill"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(StreamHandlers.class, "watch"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(StreamProperties.class))
                .accepts(hints);
        for (String script :
                List.of("io/queuekit/redis/stream/claim.lua", "io/queuekit/redis/stream/includes/deliver.lua")) {
            assertThat(RuntimeHintsPredicates.resource().forResource(script))
                    .as(script)
                    .accepts(hints);
        }
    }

    @Test
    void runTime_readsTheGroup_ofTheListenersProcessed() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("queuekit.queues.events.type", "stream")
                .withProperty("events.group", "invoicing");
        Map<String, String> listeners = Map.of("streamHandlers", StreamHandlers.class.getName());
        Map<String, String> processed = Map.of("events", "io.queuekit.Topic<" + Order.class.getName() + ">");

        QueueDefinitions definitions =
                QueueRegistrar.definitions(environment, new DefaultListableBeanFactory(), listeners, processed);

        assertThat(definitions.listeners)
                .filteredOn(l -> !l.broadcast())
                .singleElement()
                .satisfies(l -> assertThat(l.group()).isEqualTo("invoicing"));
    }

    @Test
    void payloadTypeTheGeneratedCodeCannotName_failsProcessing_namingIt() {
        ApplicationContextRunner hidden = new ApplicationContextRunner()
                .withConfiguration(
                        AutoConfigurations.of(JacksonAutoConfiguration.class, QueuekitAutoConfiguration.class))
                .withBean("notes", HiddenPayload.class)
                .withPropertyValues("queuekit.transport=in-memory", "queuekit.queues.notes.type=list");

        assertThatThrownBy(() -> process(hidden))
                .rootCause()
                .isInstanceOf(QueueConfigurationException.class)
                .hasMessageContaining("queuekit.queues.notes")
                .hasMessageContaining("io.queuekit.spring.boot.aot.HiddenPayload$Note is not public");
    }

    @Test
    void runTime_queuesOtherThanProcessed_failNamingBoth() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("queuekit.queues.orders.type", "delay")
                .withProperty("queuekit.queues.orders.max-attempts", "3");
        Map<String, String> listeners = new LinkedHashMap<>();
        Map<String, String> processed = Map.of("orders", "io.queuekit.MessageQueue<java.lang.String>");

        assertThatThrownBy(() ->
                        QueueRegistrar.definitions(environment, new DefaultListableBeanFactory(), listeners, processed))
                .isInstanceOf(QueueConfigurationException.class)
                .hasMessageContaining("orders=io.queuekit.DelayQueue<java.lang.String>")
                .hasMessageContaining("orders=io.queuekit.MessageQueue<java.lang.String>")
                .hasMessageContaining("processed ahead of time");
    }

    @Test
    void runTime_settingsOtherThanProcessed_areRead() {
        MockEnvironment environment = new MockEnvironment()
                .withProperty("queuekit.queues.orders.type", "list")
                .withProperty("queuekit.queues.orders.max-attempts", "3")
                .withProperty("queuekit.queues.prices.type", "broadcast")
                .withProperty("orders.concurrency", "5");
        Map<String, String> listeners = Map.of("handlers", Handlers.class.getName());
        Map<String, String> processed = Map.of(
                "orders",
                "io.queuekit.MessageQueue<" + Order.class.getName() + ">",
                "prices",
                "io.queuekit.Broadcaster<java.lang.String>");

        QueueDefinitions definitions =
                QueueRegistrar.definitions(environment, new DefaultListableBeanFactory(), listeners, processed);

        assertThat(definitions.queues.get("orders").settings().getMaxAttempts()).isEqualTo(3);
        assertThat(definitions.listeners)
                .filteredOn(l -> l.queue().equals("orders"))
                .singleElement()
                .satisfies(l -> assertThat(l.concurrency()).isEqualTo(5));
    }
}
