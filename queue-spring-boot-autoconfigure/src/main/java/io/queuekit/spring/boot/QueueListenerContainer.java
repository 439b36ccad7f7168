package io.queuekit.spring.boot;

import io.queuekit.ConsumeOptions;
import io.queuekit.Delivery;
import io.queuekit.MessageHandler;
import io.queuekit.MessageQueue;
import io.queuekit.Subscription;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.util.ReflectionUtils;

/**
 * Runs the listener methods: when the context has started, a managed consumer per
 * {@link QueueListener} method and a subscription per {@link BroadcastListener} method; when it
 * closes, they stop in this lifecycle phase, before any bean is destroyed, so the Redis client is
 * still open while running handlers finish and their messages are acked. Each consumer waits for
 * its handlers at most the shutdown timeout ({@code spring.lifecycle.timeout-per-shutdown-phase}
 * less a margin for the acks), all of them at once.
 */
final class QueueListenerContainer implements SmartLifecycle {
    /** Stopped before the web server stops taking requests, started after it. */
    static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;
    /** The longest shutdown timeout {@code ConsumeOptions} takes. */
    private static final Duration LONGEST_WAIT = Duration.ofDays(1);

    private final QueueDefinitions definitions;
    private final QueueCatalog catalog;
    private final BeanFactory beans;
    private final Duration shutdownTimeout;
    private final List<Running> running = new ArrayList<>();
    private volatile boolean started;

    private record Running(String queue, Subscription subscription) {}

    QueueListenerContainer(
            QueueDefinitions definitions, QueueCatalog catalog, BeanFactory beans, Duration phaseTimeout) {
        this.definitions = definitions;
        this.catalog = catalog;
        this.beans = beans;
        Duration margin = phaseTimeout.dividedBy(10).compareTo(Duration.ofSeconds(1)) < 0
                ? phaseTimeout.dividedBy(10)
                : Duration.ofSeconds(1);
        Duration wait = phaseTimeout.minus(margin);
        this.shutdownTimeout = wait.compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT : wait;
    }

    @Override
    public synchronized void start() {
        if (started) {
            return;
        }
        try {
            for (ListenerMethod listener : definitions.listeners) {
                running.add(new Running(listener.queue(), subscribe(listener)));
            }
        } catch (RuntimeException e) {
            stopAll();
            throw e;
        }
        started = true;
    }

    private Subscription subscribe(ListenerMethod listener) {
        Object bean = beans.getBean(listener.beanName());
        Method method = AopUtils.selectInvocableMethod(listener.method(), bean.getClass());
        ReflectionUtils.makeAccessible(method);
        if (listener.broadcast()) {
            return RetryingSubscription.subscribe(
                    listener.queue(),
                    () -> catalog.broadcaster(listener.queue()).subscribe(message -> invoke(bean, method, message)));
        }
        @SuppressWarnings("unchecked")
        MessageQueue<Object> queue = (MessageQueue<Object>) catalog.queue(listener.queue());
        MessageHandler<Object> handler = delivery -> handle(listener, bean, method, delivery);
        return queue.consume(handler, options(listener));
    }

    private ConsumeOptions options(ListenerMethod listener) {
        ConsumeOptions.Builder options = QueueFactory.consumeOptions(definitions.queues.get(listener.queue()))
                .concurrency(listener.concurrency())
                .shutdownTimeout(shutdownTimeout);
        if (beans.containsBean(VirtualThreads.BEAN)) {
            options.threadFactory(beans.getBean(VirtualThreads.BEAN, java.util.concurrent.ThreadFactory.class));
        }
        return options.build();
    }

    private static void handle(ListenerMethod listener, Object bean, Method method, Delivery<Object> delivery)
            throws Exception {
        try {
            invoke(bean, method, listener.takesDelivery() ? delivery : delivery.payload());
        } catch (Exception | Error e) {
            for (Class<? extends Throwable> type : listener.noRetryFor()) {
                if (type.isInstance(e)) {
                    delivery.deadLetter(e.getClass().getName() + ": " + e.getMessage());
                    return;
                }
            }
            throw e;
        }
    }

    private static void invoke(Object bean, Method method, Object argument) throws Exception {
        try {
            method.invoke(bean, argument);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception ex) {
                throw ex;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    @Override
    public void stop() {
        stopAll();
    }

    @Override
    public void stop(Runnable callback) {
        try {
            stopAll();
        } finally {
            callback.run();
        }
    }

    /** Closes every consumer and subscription at once, each on its own thread, and waits for all. */
    private synchronized void stopAll() {
        List<Thread> closing = new ArrayList<>();
        for (Running r : running) {
            Thread t = new Thread(r.subscription()::close, "queuekit-" + r.queue() + "-stop");
            t.start();
            closing.add(t);
        }
        for (Thread t : closing) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        running.clear();
        started = false;
    }

    @Override
    public boolean isRunning() {
        return started;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
