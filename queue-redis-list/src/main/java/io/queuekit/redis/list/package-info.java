/**
 * A {@link io.queuekit.MessageQueue} on a Redis LIST, at-least-once (BLMOVE into an in-flight
 * list, leases, dead letters) or at-most-once (LPUSH and BRPOP): see
 * {@link io.queuekit.redis.list.RedisListQueue}, the one public class.
 */
package io.queuekit.redis.list;
