package io.queuekit.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.MessageQueue;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** The listeners' workers under {@code spring.threads.virtual.enabled}: virtual threads on Java 21 and later. */
@RedisServerTest
@Timeout(60)
class VirtualThreadsTest {
    private final RedisServer server;

    VirtualThreadsTest(RedisServer server) {
        this.server = server;
    }

    static class Handler {
        final AtomicReference<Thread> ranOn = new AtomicReference<>();

        @QueueListener(queue = "orders")
        void handle(String order) {
            ranOn.set(Thread.currentThread());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(Handler.class)
    static class App {
        @Autowired
        MessageQueue<String> orders;
    }

    private ApplicationContextRunner context() {
        return Contexts.on(server)
                .withUserConfiguration(App.class)
                .withPropertyValues("queuekit.queues.orders.key-prefix=" + Contexts.unique("threads"));
    }

    /** The thread that handled a message sent in {@code context}. */
    private static Thread handlerThread(org.springframework.context.ApplicationContext context) {
        context.getBean(App.class).orders.send("o-1");
        Handler handler = context.getBean(Handler.class);
        await().atMost(Duration.ofSeconds(15)).until(() -> handler.ranOn.get() != null);
        return handler.ranOn.get();
    }

    @Test
    void theWorkerThreadFactoryBean_makesTheListenersWorkers_namedAsEver() {
        Set<Thread> made = ConcurrentHashMap.newKeySet();
        ThreadFactory factory = body -> {
            Thread t = new Thread(body);
            made.add(t);
            return t;
        };
        context()
                .withBean(VirtualThreads.BEAN, ThreadFactory.class, () -> factory)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Thread worker = handlerThread(context);
                    assertThat(made).contains(worker);
                    assertThat(worker.getName()).isEqualTo("queuekit-orders-consumer-1");
                });
    }

    @Test
    void withVirtualThreadsEnabled_theWorkersAreVirtual_onJava21AndLater() {
        context().withPropertyValues("spring.threads.virtual.enabled=true").run(context -> {
            assertThat(context).hasNotFailed();
            boolean java21 = Runtime.version().feature() >= 21;
            assertThat(context.containsBean(VirtualThreads.BEAN))
                    .as("a worker thread factory on Java %s", Runtime.version())
                    .isEqualTo(java21);
            Thread worker = handlerThread(context);
            assertThat(worker.getName()).isEqualTo("queuekit-orders-consumer-1");
            assertThat(isVirtual(worker)).isEqualTo(java21);
        });
    }

    @Test
    void withoutTheProperty_theWorkersArePlatformThreads() {
        context().run(context -> {
            assertThat(context.containsBean(VirtualThreads.BEAN)).isFalse();
            assertThat(isVirtual(handlerThread(context))).isFalse();
        });
    }

    private static boolean isVirtual(Thread t) throws ReflectiveOperationException {
        return Runtime.version().feature() >= 21
                && (boolean) Thread.class.getMethod("isVirtual").invoke(t);
    }
}
