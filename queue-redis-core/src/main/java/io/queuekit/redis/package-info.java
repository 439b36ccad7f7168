/**
 * What the Redis queues share for their users: {@link io.queuekit.redis.JacksonCodec}, a JSON
 * codec that refuses polymorphic typing, {@link io.queuekit.redis.RedisQueueBuilder}, the
 * settings of the list and delay queues' builders, and {@link io.queuekit.redis.WaitingMessage},
 * a message as their {@code peek} shows it.
 */
package io.queuekit.redis;
