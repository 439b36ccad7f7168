/**
 * {@link io.queuekit.Broadcaster} on Redis PUB/SUB. The entry point is
 * {@link io.queuekit.redis.pubsub.RedisBroadcaster}: at-most-once fan-out to the subscriptions
 * connected at the moment of publishing, confirmed subscriptions, automatic resubscription after a
 * lost connection with every gap reported.
 */
package io.queuekit.redis.pubsub;
