package io.queuekit.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ContextConsumer;

/** Configuration that cannot work fails start-up, saying which property or method to fix. */
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

    private static ContextConsumer<AssertableApplicationContext> failsWith(String... parts) {
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
    void aQueueListenerOnABroadcast_andTwoParameters_fail() {
        Contexts.on(server)
                .withBean(QueueListenerOnABroadcast.class)
                .withPropertyValues("queuekit.queues.prices.type=broadcast")
                .run(failsWith("queuekit.queues.prices.type=broadcast"));
        Contexts.on(server)
                .withBean(TwoParameters.class)
                .withPropertyValues("queuekit.queues.orders.type=list")
                .run(failsWith("TwoParameters.handle(String, String) takes 2 parameters"));
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
                    assertThat(context).hasFailed();
                    // the failed context's bean factory, as Spring Boot hands it to the analyzer, holds these
                    QueuekitProperties properties = new QueuekitProperties();
                    QueuekitProperties.Queue reminders = new QueuekitProperties.Queue();
                    reminders.setType(QueuekitProperties.Type.DELAY);
                    properties.getQueues().put("reminders", reminders);
                    org.springframework.beans.factory.support.DefaultListableBeanFactory beans =
                            new org.springframework.beans.factory.support.DefaultListableBeanFactory();
                    beans.registerSingleton("definitions", new QueueDefinitions(properties, java.util.List.of()));
                    FailureAnalysis analysis =
                            new QueueInjectionFailureAnalyzer(beans).analyze(context.getStartupFailure());
                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription())
                            .contains(
                                    "io.queuekit.DelayQueue<io.queuekit.spring.boot.Order>",
                                    "reminders: DelayQueue<String> (no payload-type and no listener)");
                    assertThat(analysis.getAction())
                            .contains("queuekit.queues.<name>.payload-type=" + Order.class.getName());
                });
    }
}
