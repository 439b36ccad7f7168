package io.queuekit.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Isolated;
import org.springframework.beans.BeanUtils;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ContextConsumer;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;

/**
 * Configuration that cannot work fails start-up, saying which property or method to fix. Runs alone:
 * one test reads the last start-up report that the whole JVM printed.
 */
@Isolated
@RedisServerTest
@Timeout(60)
class ConfigurationErrorsTest {
    private final RedisServer server;

    ConfigurationErrorsTest(RedisServer server) {
        this.server = server;
    }

    static class ListensToAnUndeclaredQueue {
        @QueueListener(queue = "ordres")
        void handle(String order) {}
    }

    static class TakesTheWrongType {
        @QueueListener(queue = "orders")
        void handle(Integer order) {}
    }

    static class QueueListenerOnABroadcast {
        @QueueListener(queue = "prices")
        void handle(String price) {}
    }

    static class TwoParameters {
        @QueueListener(queue = "orders")
        void handle(String order, String other) {}
    }

    static class HeadersFirst {
        @QueueListener(queue = "orders")
        void handle(io.queuekit.Headers headers, String order) {}
    }

    static class ThreeParameters {
        @BroadcastListener(channel = "prices")
        void handle(String price, io.queuekit.Headers headers, String other) {}
    }

    /** Someone else's headers type. */
    record Headers(java.util.Map<String, String> map) {}

    static class OtherHeaders {
        @BroadcastListener(channel = "prices")
        void handle(String price, Headers headers) {}
    }

    static class TakesOrderLists {
        @QueueListener(queue = "orders")
        void handle(java.util.List<Order> orders) {}
    }

    record Invoice(String id) {}

    static class TakesInvoiceLists {
        @QueueListener(queue = "orders")
        void handle(java.util.List<Invoice> invoices) {}
    }

    static class GroupOnAList {
        @QueueListener(queue = "orders", group = "billing")
        void handle(String order) {}
    }

    static class StreamListenerWithoutGroup {
        @QueueListener(queue = "events")
        void handle(String event) {}
    }

    static class BadGroupName {
        @QueueListener(queue = "events", group = "${billing.group:bill ing}")
        void handle(String event) {}
    }

    static ContextConsumer<AssertableApplicationContext> failsWith(String... parts) {
        return context -> {
            assertThat(context).hasFailed();
            QueueConfigurationException e = find(context.getStartupFailure());
            assertThat(e)
                    .as("QueueConfigurationException in %s", context.getStartupFailure())
                    .isNotNull();
            for (String part : parts) {
                assertThat(e.getMessage()).contains(part);
            }
            FailureAnalysis analysis = new QueueConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).isEqualTo(e.getMessage());
            assertThat(analysis.getAction()).isEqualTo(e.action()).isNotBlank();
        };
    }

    private static QueueConfigurationException find(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof QueueConfigurationException q) {
                return q;
            }
        }
        return null;
    }

    @Test
    void aMisspelledQueueProperty_failsNamingIt_andTheNameItMeant() {
        Contexts.on(server)
                .withPropertyValues("queuekit.queues.orders.visibilty-timeout=5m")
                .run(failsWith(
                        "Unknown property queuekit.queues.orders.visibilty-timeout",
                        "did you mean queuekit.queues.orders.visibility-timeout?"));
        Contexts.on(server)
                .withPropertyValues("queuekit.queues.orders.retry.initial-backof=1s")
                .run(failsWith("did you mean queuekit.queues.orders.retry.initial-backoff?"));
        Contexts.on(server)
                .withPropertyValues("queuekit.health.dead-letter-treshold=5")
                .run(failsWith("did you mean queuekit.health.dead-letter-threshold?"));
        Contexts.on(server)
                .withPropertyValues("queuekit.queues.orders.colour=blue")
                .run(failsWith("Unknown property queuekit.queues.orders.colour"));
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {}

    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void theStartUpReport_printsTheSuggestion(CapturedOutput output) {
        SpringApplication app = new SpringApplication(App.class);
        app.setWebApplicationType(WebApplicationType.NONE);
        assertThatThrownBy(() -> app.run(
                        "--spring.data.redis.port=" + server.port(), "--queuekit.queues.orders.visibilty-timeout=5m"))
                .isInstanceOf(RuntimeException.class);
        String report = output.getAll().substring(output.getAll().lastIndexOf("APPLICATION FAILED TO START"));
        assertThat(report)
                .contains("Unknown property queuekit.queues.orders.visibilty-timeout")
                .contains("did you mean queuekit.queues.orders.visibility-timeout?")
                .contains("Rename it to queuekit.queues.orders.visibility-timeout, or remove it.");
    }

    @Test
    void theSuggestion_isReportedBeforeBootsOwnAnalysis_whateverTheClasspathOrder() throws Exception {
        // Boot's analyzers come first on an application's classpath, where the starter is a jar after Boot's
        FailureAnalyzer boots = (FailureAnalyzer) BeanUtils.instantiateClass(Class.forName(
                        "org.springframework.boot.diagnostics.analyzer.UnboundConfigurationPropertyFailureAnalyzer")
                .getDeclaredConstructor());
        List<FailureAnalyzer> analyzers = new ArrayList<>(List.of(boots, new QueueConfigurationFailureAnalyzer()));
        AnnotationAwareOrderComparator.sort(analyzers); // as SpringFactoriesLoader sorts them
        Contexts.on(server)
                .withPropertyValues("queuekit.queues.orders.visibilty-timeout=5m")
                .run(context -> {
                    Throwable failure = context.getStartupFailure();
                    FailureAnalysis first = analyzers.stream()
                            .map(a -> a.analyze(failure))
                            .filter(Objects::nonNull)
                            .findFirst()
                            .orElseThrow();
                    assertThat(first.getDescription())
                            .contains("did you mean queuekit.queues.orders.visibility-timeout?");
                });
    }

    @Test
    void aMisspelledTopLevelProperty_failsNamingIt() {
        Contexts.on(server)
                .withPropertyValues("queuekit.queue.orders.type=list")
                .run(failsWith("queuekit.queue.orders.type"));
    }

    @Test
    void aValueOfTheWrongKind_failsNamingTheProperty() {
        Contexts.on(server)
                .withPropertyValues("queuekit.queues.orders.max-attempts=many")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).hasMessageContaining("queuekit.queues.orders.max-attempts");
                });
        Contexts.on(server)
                .withPropertyValues("queuekit.queues.orders.type=stack")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).hasMessageContaining("queuekit.queues.orders.type");
                });
        Contexts.on(server)
                .withPropertyValues("queuekit.queues.orders.payload-type=com.example.NoSuchOrder")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).hasMessageContaining("queuekit.queues.orders.payload-type");
                });
    }

    @Test
    void aValueTheTransportRefuses_failsNamingTheProperty() {
        Contexts.on(server)
                .withPropertyValues("queuekit.queues.orders.visibility-timeout=0s")
                .run(failsWith(
                        "queuekit.queues.orders.visibility-timeout=PT0S", "visibility timeout must be 10 ms to 12 h"));
        Contexts.on(server)
                .withPropertyValues("queuekit.queues.orders.max-attempts=0")
                .run(failsWith("queuekit.queues.orders.max-attempts=0"));
        Contexts.on(server)
                .withPropertyValues("queuekit.queues.orders.retry.initial-backoff=-1s")
                .run(failsWith("queuekit.queues.orders.retry.initial-backoff"));
    }

    @Test
    void aSettingForAnotherType_failsNamingIt() {
        Contexts.on(server)
                .withPropertyValues(
                        "queuekit.queues.reminders.type=delay", "queuekit.queues.reminders.guarantee=at-most-once")
                .run(failsWith("queuekit.queues.reminders.guarantee", "list queues"));
        Contexts.on(server)
                .withPropertyValues("queuekit.queues.prices.type=broadcast", "queuekit.queues.prices.max-attempts=3")
                .run(failsWith("queuekit.queues.prices.max-attempts", "broadcast"));
        Contexts.on(server)
                .withPropertyValues(
                        "queuekit.queues.prices.type=broadcast", "queuekit.queues.prices.retry.max-backoff=1m")
                .run(failsWith("queuekit.queues.prices.retry.*", "broadcast"));
    }

    @Test
    void shards_onAStream_buildAShardedTopic() {
        Contexts.on(server)
                .withPropertyValues("queuekit.queues.events.type=stream", "queuekit.queues.events.shards=3")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean("events", io.queuekit.Topic.class)
                                    .semantics()
                                    .ordering())
                            .isEqualTo(io.queuekit.Semantics.Ordering.NONE);
                });
        Contexts.on(server)
                .withPropertyValues("queuekit.queues.prices.type=broadcast", "queuekit.queues.prices.shards=3")
                .run(failsWith("queuekit.queues.prices.shards", "list and delay queues and streams"));
    }

    @Test
    void aSettingThatDoesNotApplyToAStream_failsNamingIt() {
        String[] stream = {"queuekit.queues.events.type=stream"};
        Contexts.on(server)
                .withPropertyValues(stream)
                .withPropertyValues("queuekit.queues.events.block-timeout=20s")
                .run(failsWith("queuekit.queues.events.block-timeout=PT20S is refused"));
        Contexts.on(server)
                .withPropertyValues(stream)
                .withPropertyValues("queuekit.queues.events.guarantee=at-most-once")
                .run(failsWith("queuekit.queues.events.guarantee", "at-least-once"));
        Contexts.on(server)
                .withPropertyValues(stream)
                .withPropertyValues("queuekit.queues.events.broadcast.buffer-capacity=5")
                .run(failsWith("queuekit.queues.events.broadcast.*", "broadcasts"));
        Contexts.on(server)
                .withPropertyValues(stream)
                .withPropertyValues("queuekit.queues.events.sharded=false")
                .run(failsWith("queuekit.queues.events.sharded", "broadcasts"));
        Contexts.on(server)
                .withPropertyValues("queuekit.queues.orders.stream.max-length=1000")
                .run(failsWith("queuekit.queues.orders.stream.*", "streams", "is list"));
        Contexts.on(server)
                .withPropertyValues("queuekit.queues.prices.type=broadcast", "queuekit.queues.prices.stream.max-age=1h")
                .run(failsWith("queuekit.queues.prices.stream.*", "streams", "is broadcast"));
        Contexts.on(server)
                .withPropertyValues(stream)
                .withPropertyValues("queuekit.queues.events.stream.max-lenght=10")
                .run(failsWith("did you mean queuekit.queues.events.stream.max-length?"));
    }

    @Test
    void streamRetentionTheBuilderRefuses_failsNamingTheProperty_onRedisAndInMemory() {
        for (String transport : List.of("redis", "in-memory")) {
            String[] stream = {"queuekit.transport=" + transport, "queuekit.queues.events.type=stream"};
            Contexts.on(server)
                    .withPropertyValues(stream)
                    .withPropertyValues("queuekit.queues.events.stream.max-age=0s")
                    .run(failsWith("queuekit.queues.events.stream.max-age=PT0S is refused", "max age"));
            Contexts.on(server)
                    .withPropertyValues(stream)
                    .withPropertyValues("queuekit.queues.events.stream.hard-max-length=0")
                    .run(failsWith("queuekit.queues.events.stream.hard-max-length=0 is refused"));
            Contexts.on(server)
                    .withPropertyValues(stream)
                    .withPropertyValues(
                            "queuekit.queues.events.stream.max-length=100",
                            "queuekit.queues.events.stream.hard-max-length=10")
                    .run(failsWith("queuekit.queues.events.stream.max-length=100 is above "
                            + "queuekit.queues.events.stream.hard-max-length=10"));
        }
    }

    @Test
    void aGroupOnAQueueThatIsNotAStream_failsNamingTheMethodAndTheQueue() {
        Contexts.on(server)
                .withBean(GroupOnAList.class)
                .withPropertyValues("queuekit.queues.orders.type=list")
                .run(failsWith(
                        "@QueueListener(group = \"billing\") GroupOnAList.handle(String)",
                        "queuekit.queues.orders.type=list",
                        "only a stream has consumer groups"));
    }

    @Test
    void aStreamListenerWithoutAGroup_failsNamingTheMethodAndTheStream() {
        Contexts.on(server)
                .withBean(StreamListenerWithoutGroup.class)
                .withPropertyValues("queuekit.queues.events.type=stream")
                .run(failsWith(
                        "StreamListenerWithoutGroup.handle(String)",
                        "queuekit.queues.events.type=stream",
                        "but no group"));
    }

    @Test
    void aGroupNameATopicRefuses_failsNamingTheMethod() {
        Contexts.on(server)
                .withBean(BadGroupName.class)
                .withPropertyValues("queuekit.queues.events.type=stream")
                .run(failsWith("BadGroupName.handle(String)", "\"bill ing\"", "not a group name"));
    }

    @Test
    void inMemory_refusesWhatRedisRefuses() {
        String[] inMemory = {"queuekit.transport=in-memory"};
        Contexts.on(server)
                .withPropertyValues(inMemory)
                .withPropertyValues("queuekit.queues.orders.shards=1000")
                .run(failsWith("queuekit.queues.orders.shards=1000", "shards must be 1 to 256"));
        Contexts.on(server)
                .withPropertyValues(inMemory)
                .withPropertyValues("queuekit.queues.orders.block-timeout=30s")
                .run(failsWith("queuekit.queues.orders.block-timeout=PT30S"));
        Contexts.on(server)
                .withPropertyValues(inMemory)
                .withPropertyValues("queuekit.queues.orders.key-prefix=my app")
                .run(failsWith("queuekit.queues.orders.key-prefix=my app", "key prefix"));
        Contexts.on(server)
                .withPropertyValues(inMemory)
                .withPropertyValues(
                        "queuekit.queues.prices.type=broadcast", "queuekit.queues.prices.retry.initial-backoff=2s")
                .run(failsWith("queuekit.queues.prices.retry.*"));
    }

    @Test
    void consumerAndBroadcastSettings_thatTheBuildersRefuse_orOfAnotherType_failNamingThem() {
        Contexts.on(server)
                .withPropertyValues("queuekit.queues.orders.consumer.batch-sise=10")
                .run(failsWith("did you mean queuekit.queues.orders.consumer.batch-size?"));
        Contexts.on(server)
                .withPropertyValues("queuekit.queues.orders.consumer.batch-size=0")
                .run(failsWith("queuekit.queues.orders.consumer.batch-size=0", "batch size must be 1 to 10000"));
        Contexts.on(server)
                .withPropertyValues("queuekit.queues.orders.consumer.poll-timeout=2m")
                .run(failsWith("queuekit.queues.orders.consumer.poll-timeout=PT2M", "poll timeout"));
        Contexts.on(server)
                .withPropertyValues("queuekit.queues.orders.consumer.lease-renewal-limit=-1s")
                .run(failsWith("queuekit.queues.orders.consumer.lease-renewal-limit=PT-1S"));
        String[] broadcast = {"queuekit.queues.prices.type=broadcast"};
        Contexts.on(server)
                .withPropertyValues(broadcast)
                .withPropertyValues("queuekit.queues.prices.broadcast.buffer-capacity=0")
                .run(failsWith("queuekit.queues.prices.broadcast.buffer-capacity=0", "bufferCapacity"));
        Contexts.on(server)
                .withPropertyValues(broadcast)
                .withPropertyValues("queuekit.queues.prices.broadcast.buffer-bytes=0")
                .run(failsWith("queuekit.queues.prices.broadcast.buffer-bytes=0", "bufferBytes"));
        Contexts.on(server)
                .withPropertyValues(broadcast)
                .withPropertyValues("queuekit.queues.prices.broadcast.keep-alive-interval=0s")
                .run(failsWith("queuekit.queues.prices.broadcast.keep-alive-interval=PT0S", "keepAliveInterval"));
        Contexts.on(server)
                .withPropertyValues(broadcast)
                .withPropertyValues("queuekit.queues.prices.consumer.batch-size=5")
                .run(failsWith("queuekit.queues.prices.consumer.*", "list and delay queues"));
        Contexts.on(server)
                .withPropertyValues("queuekit.queues.orders.broadcast.buffer-capacity=5")
                .run(failsWith("queuekit.queues.orders.broadcast.*", "broadcasts"));
    }

    @Test
    void inMemory_checksTheConsumerAndBroadcastSettings_asRedisDoes() {
        String[] inMemory = {"queuekit.transport=in-memory", "queuekit.queues.prices.type=broadcast"};
        Contexts.on(server)
                .withPropertyValues(inMemory)
                .withPropertyValues("queuekit.queues.prices.broadcast.buffer-bytes=0")
                .run(failsWith("queuekit.queues.prices.broadcast.buffer-bytes=0", "bufferBytes"));
        Contexts.on(server)
                .withPropertyValues(inMemory)
                .withPropertyValues("queuekit.queues.prices.broadcast.keep-alive-interval=2d")
                .run(failsWith("queuekit.queues.prices.broadcast.keep-alive-interval=PT48H"));
        Contexts.on(server)
                .withPropertyValues(inMemory)
                .withPropertyValues("queuekit.queues.prices.broadcast.buffer-capacity=0")
                .run(failsWith("queuekit.queues.prices.broadcast.buffer-capacity=0", "inboxCapacity"));
        Contexts.on(server)
                .withPropertyValues(inMemory)
                .withPropertyValues("queuekit.queues.orders.consumer.batch-size=0")
                .run(failsWith("queuekit.queues.orders.consumer.batch-size=0"));
    }

    @Test
    void aMisspelledGlobalKeyPrefix_orABadOne_failsNamingIt() {
        Contexts.on(server)
                .withPropertyValues("queuekit.key-prefix=my app")
                .run(failsWith("queuekit.key-prefix=my app is refused"));
    }

    @Test
    void aListenerOfAnUndeclaredQueue_failsNamingTheQueueAndTheMethod() {
        Contexts.on(server)
                .withBean(ListensToAnUndeclaredQueue.class)
                .withPropertyValues("queuekit.queues.orders.type=list")
                .run(failsWith("ListensToAnUndeclaredQueue.handle(String)", "'ordres'", "[orders]"));
    }

    @Test
    void aListenerOfTheWrongPayloadType_failsNamingThePayloadTypeProperty() {
        Contexts.on(server)
                .withBean(TakesTheWrongType.class)
                .withPropertyValues("queuekit.queues.orders.payload-type=" + Order.class.getName())
                .run(failsWith("TakesTheWrongType.handle(Integer)", "queuekit.queues.orders.payload-type"));
    }

    @Test
    void listenersOfOneQueue_takingListsOfDifferentTypes_failNamingBothTypes() {
        Contexts.on(server)
                .withBean(TakesOrderLists.class)
                .withBean(TakesInvoiceLists.class)
                .withPropertyValues("queuekit.queues.orders.type=list")
                .run(failsWith(
                        "queue 'orders'",
                        "TakesOrderLists.handle(List) takes java.util.List<io.queuekit.spring.boot.Order>",
                        "TakesInvoiceLists.handle(List) takes java.util.List<" + Invoice.class.getName() + ">"));
    }

    @Test
    void aListListener_ofAQueueWhosePayloadTypeCannotCarryTheElementType_failsNamingThePayloadTypeProperty() {
        Contexts.on(server)
                .withBean(TakesOrderLists.class)
                .withPropertyValues("queuekit.queues.orders.payload-type=java.util.ArrayList")
                .run(failsWith(
                        "TakesOrderLists.handle(List) takes java.util.List<io.queuekit.spring.boot.Order>",
                        "queuekit.queues.orders.payload-type is java.util.ArrayList"));
        Contexts.on(server)
                .withBean(TakesOrderLists.class)
                .withPropertyValues("queuekit.queues.orders.payload-type=" + Order.class.getName())
                .run(failsWith("TakesOrderLists.handle(List)", "queuekit.queues.orders.payload-type"));
    }

    @Test
    void aQueueListenerOnABroadcast_fails() {
        Contexts.on(server)
                .withBean(QueueListenerOnABroadcast.class)
                .withPropertyValues("queuekit.queues.prices.type=broadcast")
                .run(failsWith("queuekit.queues.prices.type=broadcast"));
    }

    @Test
    void aListenerMethodsParameters_otherThanThePayloadAndThenHeaders_failNamingTheMethod() {
        Contexts.on(server)
                .withBean(TwoParameters.class)
                .withPropertyValues("queuekit.queues.orders.type=list")
                .run(failsWith(
                        "TwoParameters.handle(String, String) takes 2 parameters, the second a java.lang.String",
                        "can only be io.queuekit.Headers"));
        Contexts.on(server)
                .withBean(OtherHeaders.class)
                .withPropertyValues("queuekit.queues.prices.type=broadcast")
                .run(failsWith(
                        "OtherHeaders.handle(String, Headers) takes 2 parameters, the second a "
                                + Headers.class.getName(),
                        "can only be io.queuekit.Headers"));
        Contexts.on(server)
                .withBean(HeadersFirst.class)
                .withPropertyValues("queuekit.queues.orders.type=list")
                .run(failsWith(
                        "HeadersFirst.handle(Headers, String) takes Headers first",
                        "first parameter is the payload or a Delivery<T>"));
        Contexts.on(server)
                .withBean(ThreeParameters.class)
                .withPropertyValues("queuekit.queues.prices.type=broadcast")
                .run(failsWith(
                        "ThreeParameters.handle(String, Headers, String) takes 3 parameters",
                        "takes the payload, and may take the message's Headers second"));
    }

    interface Handler {}

    static class HiddenListener implements Handler {
        @QueueListener(queue = "orders")
        void handle(String order) {}
    }

    @Test
    void aListenerHiddenBehindAnInterfaceBeanType_failsRatherThanNeverRunning() {
        Contexts.on(server)
                .withBean(Handler.class, HiddenListener::new)
                .withPropertyValues("queuekit.queues.orders.type=list")
                .run(failsWith("HiddenListener.handle(String)", "was not seen"));
    }

    /** Only sends reminders: no listener names the queue's payload type. */
    static class SendsReminders {
        SendsReminders(io.queuekit.DelayQueue<Order> reminders) {}
    }

    @Test
    void injectingAQueueOfAnotherPayloadType_failsSayingWhichQueuesThereAre_andToSetPayloadType() {
        Contexts.on(server)
                .withBean(SendsReminders.class)
                .withPropertyValues("queuekit.queues.reminders.type=delay")
                .run(context -> {
                    FailureAnalysis analysis =
                            analyzeInjectionFailure(context, "reminders", QueuekitProperties.Type.DELAY);
                    assertThat(analysis.getDescription())
                            .contains(
                                    "io.queuekit.DelayQueue<io.queuekit.spring.boot.Order>",
                                    "reminders: DelayQueue<String> (no payload-type and no listener)");
                    assertThat(analysis.getAction())
                            .contains("queuekit.queues.<name>.payload-type=" + Order.class.getName());
                });
    }

    /** Only sends lists of orders: no listener method gives the queue its payload type. */
    static class SendsOrderLists {
        SendsOrderLists(io.queuekit.MessageQueue<java.util.List<Order>> orders) {}
    }

    @Test
    void injectingAQueueOfAGenericPayloadType_thatNoListenerTakes_failsSayingItComesFromAListener() {
        Contexts.on(server)
                .withBean(SendsOrderLists.class)
                .withPropertyValues("queuekit.queues.orders.type=list")
                .run(context -> {
                    FailureAnalysis analysis = analyzeInjectionFailure(context, "orders", QueuekitProperties.Type.LIST);
                    assertThat(analysis.getDescription()).contains("orders: MessageQueue<String>");
                    assertThat(analysis.getAction())
                            .contains("List<Order>", "@QueueListener method", "payload-type (a class) cannot say");
                });
    }

    /** What the analyzer says of the failed context, which declared the one queue {@code name}. */
    private static FailureAnalysis analyzeInjectionFailure(
            AssertableApplicationContext context, String name, QueuekitProperties.Type type) {
        assertThat(context).hasFailed();
        // the failed context's bean factory, as Spring Boot hands it to the analyzer, holds these
        QueuekitProperties properties = new QueuekitProperties();
        QueuekitProperties.Queue queue = new QueuekitProperties.Queue();
        queue.setType(type);
        properties.getQueues().put(name, queue);
        org.springframework.beans.factory.support.DefaultListableBeanFactory beans =
                new org.springframework.beans.factory.support.DefaultListableBeanFactory();
        beans.registerSingleton("definitions", new QueueDefinitions(properties, java.util.List.of()));
        FailureAnalysis analysis = new QueueInjectionFailureAnalyzer(beans).analyze(context.getStartupFailure());
        assertThat(analysis).isNotNull();
        return analysis;
    }
}
