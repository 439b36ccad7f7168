/**
 * What the Redis queues share for their users: {@link io.queuekit.redis.JacksonCodec}, a JSON
 * codec that refuses polymorphic typing, and {@link io.queuekit.redis.RedisQueueBuilder}, the
 * settings of the list and delay queues' builders.
 */
package io.queuekit.redis;
