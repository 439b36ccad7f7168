package io.queuekit.spring.boot;

import io.queuekit.ConsumeOptions;
import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageHandler;
import io.queuekit.MessageQueue;
import io.queuekit.Subscription;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.util.ReflectionUtils;

/**
 * One listener method as {@link QueueListenerContainer} runs it: a managed consumer of its queue or
 * of its stream's group, or a subscription to its channel or stream, while started and not paused.
 * Pausing closes the consumer (the queue has no way to stop fetching and keep it) and resuming makes
 * a new one.
 */
final class ManagedListener {
    private final ListenerMethod listener;
    private final QueueCatalog catalog;
    private final BeanFactory beans;
    /** Null for a broadcast listener. */
    private final @Nullable ConsumeOptions options;

    private final BroadcastSubscriptions broadcasts;
    private final @Nullable QueueListenerErrorHandler errorHandler;
    // guarded by this
    private @Nullable Subscription subscription;
    private boolean running;
    private boolean paused;

    ManagedListener(
            ListenerMethod listener,
            QueueCatalog catalog,
            BeanFactory beans,
            @Nullable ConsumeOptions options,
            BroadcastSubscriptions broadcasts,
            @Nullable QueueListenerErrorHandler errorHandler) {
        this.broadcasts = broadcasts;
        this.listener = listener;
        this.catalog = catalog;
        this.beans = beans;
        this.options = options;
        this.errorHandler = errorHandler;
    }

    ListenerMethod method() {
        return listener;
    }

    synchronized void start() {
        if (running) {
            return;
        }
        subscription = subscribe();
        running = true;
        paused = false;
    }

    /** Stops, waiting for running handlers (outside the lock, so that they may ask for the state). */
    void stop() {
        Subscription closing;
        synchronized (this) {
            closing = subscription;
            subscription = null;
            running = false;
            paused = false;
        }
        if (closing != null) {
            closing.close();
        }
    }

    void pause() {
        Subscription closing;
        synchronized (this) {
            if (!running || paused) {
                return;
            }
            closing = subscription;
            subscription = null;
            paused = true;
        }
        if (closing != null) {
            closing.close();
        }
    }

    synchronized void resume() {
        if (!paused) {
            return;
        }
        subscription = subscribe();
        paused = false;
    }

    synchronized boolean isRunning() {
        return running;
    }

    synchronized boolean isPaused() {
        return paused;
    }

    private Subscription subscribe() {
        Object bean = beans.getBean(listener.beanName());
        Method method = AopUtils.selectInvocableMethod(listener.method(), bean.getClass());
        ReflectionUtils.makeAccessible(method);
        if (listener.broadcast()) {
            return broadcasts.subscribe(
                    listener,
                    () -> catalog.broadcaster(listener.queue())
                            .subscribeWithHeaders(
                                    (message, headers) -> invoke(bean, method, arguments(message, () -> headers))));
        }
        MessageHandler<Object> handler = delivery -> handle(bean, method, delivery);
        String group = listener.group();
        if (group != null) {
            // the group is made on Redis when first named: while Redis is down, keep trying as a subscription does
            return RetryingSubscription.subscribe(
                    listener.queue(),
                    "the listener of group " + group,
                    () -> queue(catalog.group(listener.queue(), group)).consume(handler, options));
        }
        return queue(catalog.queue(listener.queue())).consume(handler, options);
    }

    @SuppressWarnings("unchecked")
    private static MessageQueue<Object> queue(MessageQueue<?> queue) {
        return (MessageQueue<Object>) queue;
    }

    /**
     * Calls the method; a failure dead-letters at once for {@code noRetryFor}, else goes to the
     * error handler, else (thrown on) to the consumer, which retries it. A failure settled here is
     * thrown on too, so that metrics and observations see the method fail; the consumer leaves a
     * delivery its handler settled as it is.
     */
    private void handle(Object bean, Method method, Delivery<Object> delivery) throws Exception {
        Object[] arguments = arguments(listener.takesDelivery() ? delivery : delivery.payload(), delivery::headers);
        try {
            invoke(bean, method, arguments);
        } catch (Exception | Error e) {
            for (Class<? extends Throwable> type : listener.noRetryFor()) {
                if (type.isInstance(e)) {
                    delivery.deadLetter(reason(e));
                    throw e;
                }
            }
            if (errorHandler == null || !(e instanceof Exception exception)) {
                throw e;
            }
            QueueListenerErrorHandler.Decision decision = errorHandler.handle(listener.queue(), delivery, exception);
            if (decision == null) {
                throw new IllegalStateException(
                        "the QueueListenerErrorHandler returned null for " + listener.describe(), e);
            }
            switch (decision) {
                case RETRY -> {}
                case DEAD_LETTER -> delivery.deadLetter(reason(e));
                case ACK -> delivery.ack();
            }
            throw e;
        }
    }

    private static String reason(Throwable e) {
        return e.getClass().getName() + ": " + e.getMessage();
    }

    /** The method's arguments: {@code first}, and the headers if it takes them (read only then). */
    private Object[] arguments(Object first, Supplier<Headers> headers) {
        return listener.takesHeaders() ? new Object[] {first, headers.get()} : new Object[] {first};
    }

    /** Calls the method, throwing what it throws. */
    static void invoke(Object bean, Method method, Object[] arguments) throws Exception {
        try {
            method.invoke(bean, arguments);
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
}
