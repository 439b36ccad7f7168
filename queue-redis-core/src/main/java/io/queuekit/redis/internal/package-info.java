/**
 * What the Redis queues share underneath: the engine that runs their Lua scripts, key names,
 * error translation, deliveries and dead letters. Internal: it may change in any release, and no
 * public signature of queuekit mentions it.
 */
package io.queuekit.redis.internal;
