/**
 * Spring Boot 4 auto-configuration for queuekit. Declare queues as properties
 * ({@code queuekit.queues.orders.type=list}), inject them as {@code MessageQueue<Order>},
 * {@code DelayQueue<Order>} or {@code Broadcaster<Price>}, and handle them with
 * {@link io.queuekit.spring.boot.QueueListener} and {@link io.queuekit.spring.boot.BroadcastListener}
 * methods. See {@link io.queuekit.spring.boot.QueuekitAutoConfiguration} for what it makes.
 */
package io.queuekit.spring.boot;
