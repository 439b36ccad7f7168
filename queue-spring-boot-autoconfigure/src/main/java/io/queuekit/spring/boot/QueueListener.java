package io.queuekit.spring.boot;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a bean method the handler of a queue declared under {@code queuekit.queues.<queue>}: once
 * the application context has started, managed consumers ({@code MessageQueue#consume}) call it
 * for each message. On a stream ({@code type=stream}) it names the {@link #group()} it consumes:
 * the {@code ConsumerGroup} the stream's {@code Topic} keeps for it, which gets every message
 * published, each to one of the group's consumers in every instance of the application.
 *
 * <pre>{@code
 * @QueueListener(queue = "orders", concurrency = "4")
 * void handle(Order order) { ... }
 *
 * @QueueListener(queue = "order-events", group = "billing")
 * void bill(OrderEvent event) { ... }
 * }</pre>
 *
 * <p>The method takes the payload (of the queue's {@code payload-type}) or a {@code Delivery<T>}
 * for its id, attempt and time, or to settle it by hand. A payload type with type arguments is kept
 * whole: {@code List<Order>} is one message whose payload is a JSON array of orders, decoded as such
 * (there are no batch listeners). It may take the message's {@link io.queuekit.Headers} as a second
 * parameter ({@code void handle(Order order, Headers headers)}), empty for a message sent without
 * any; any other parameters fail start-up. How it ends settles the message:
 * <ul>
 *   <li>it returns: the message is acked;</li>
 *   <li>it throws: the message is tried again after a backoff ({@code queuekit.queues.<queue>.retry.*}),
 *       and goes to the dead letters once {@code max-attempts} deliveries have failed;</li>
 *   <li>it throws one of {@link #noRetryFor()} (or a subclass): the message goes straight to the
 *       dead letters, with the exception as the reason.</li>
 * </ul>
 * A {@link QueueListenerErrorHandler} bean, if the application has one, decides instead of the
 * second rule. When the context closes, consumers stop taking messages, running handlers finish and
 * are settled within {@code spring.lifecycle.timeout-per-shutdown-phase}, and only then does the
 * Redis client close. {@link QueueListenerRegistry} starts, stops and pauses a listener by its
 * {@link #id()}.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface QueueListener {

    /** The queue's name: the key under {@code queuekit.queues}. */
    String queue();

    /**
     * The consumer group of a stream ({@code queuekit.queues.<queue>.type=stream}) the method
     * consumes, created the first time it is named and kept: 1 to 100 letters, digits, {@code '.'},
     * {@code '_'} or {@code '-'}, or a {@code ${...}} placeholder. Required on a stream, refused
     * on any other type of queue. Every listener and every instance naming one group shares its
     * messages; each group gets every message.
     */
    String group() default "";

    /**
     * Worker threads calling the method, 1 to 1024; a number or a {@code ${...}} placeholder. Each
     * holds one Redis connection while it waits, and the starter sizes its pool for them.
     */
    String concurrency() default "1";

    /** Exceptions after which the message goes to the dead letters at once instead of being retried. */
    Class<? extends Throwable>[] noRetryFor() default {};

    /**
     * The listener's id in the {@link QueueListenerRegistry}, unique in the application; a
     * {@code ${...}} placeholder may be used. Empty: {@code <beanName>.<methodName>}.
     */
    String id() default "";

    /**
     * Whether the listener starts with the application context: {@code true} or {@code false}, or a
     * {@code ${...}} placeholder. Otherwise it waits for {@link QueueListenerRegistry#start(String)}.
     */
    String autoStartup() default "true";

    /**
     * The delay before the first retry of a failed message, for this listener: a duration
     * ({@code 500ms}, {@code 2s}, {@code PT1M}) from 0 to 1 day, or a {@code ${...}} placeholder.
     * Empty: the queue's {@code retry.initial-backoff}.
     */
    String initialBackoff() default "";

    /**
     * The longest delay between retries, for this listener, written as {@link #initialBackoff()};
     * not below the initial backoff. Empty: the queue's {@code retry.max-backoff}, raised to this
     * listener's initial backoff if it is lower.
     */
    String maxBackoff() default "";
}
