/**
 * Durable fan-out on a Redis STREAM: {@link io.queuekit.redis.stream.RedisStreamTopic}, a
 * {@link io.queuekit.Topic} whose consumer groups are Redis consumer groups.
 */
package io.queuekit.redis.stream;
