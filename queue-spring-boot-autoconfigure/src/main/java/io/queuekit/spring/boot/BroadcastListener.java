package io.queuekit.spring.boot;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Subscribes a bean method to a broadcast channel declared as
 * {@code queuekit.queues.<channel>.type=broadcast}: once the application context has started, it
 * receives every message published while it is subscribed (at-most-once: nothing is kept for a
 * subscriber that is away; see {@code Broadcaster}). On a stream ({@code type=stream}) the
 * subscription is a consumer group of its own, at least once while it lasts and deleted when it
 * closes (see {@code Topic#subscribe}); a {@link QueueListener#group()} is what keeps messages for
 * a service while it is away.
 *
 * <pre>{@code
 * @BroadcastListener(channel = "prices")
 * void onPrice(Price price) { ... }
 * }</pre>
 *
 * <p>The method takes the payload, and may take the message's {@link io.queuekit.Headers} as a
 * second parameter (empty for a message published without any). An exception it throws is logged
 * and counted; the message is not delivered again. The subscription closes when the context closes.
 * {@link QueueListenerRegistry} starts and stops it by its {@link #id()}.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface BroadcastListener {

    /** The channel's or stream's name: the key under {@code queuekit.queues}. */
    String channel();

    /**
     * The listener's id in the {@link QueueListenerRegistry}, unique in the application; a
     * {@code ${...}} placeholder may be used. Empty: {@code <beanName>.<methodName>}.
     */
    String id() default "";

    /**
     * Whether the listener subscribes when the application context starts: {@code true} or
     * {@code false}, or a {@code ${...}} placeholder. Otherwise it waits for
     * {@link QueueListenerRegistry#start(String)}.
     */
    String autoStartup() default "true";
}
