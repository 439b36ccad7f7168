/**
 * What the Redis queues share underneath: the context each queue's store is built on (the client,
 * settings, the transport-neutral runtime, script composition), its Lua scripts bound to their
 * keys, key names, error translation and the dead letters both Redis queues keep alike. Internal:
 * it may change in any release, and no public signature of queuekit mentions it.
 */
package io.queuekit.redis.internal;
