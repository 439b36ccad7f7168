/**
 * What the Redis queues share underneath: the runtime each queue holds (lifecycle, encoding,
 * consumers, metrics), its Lua scripts bound to their keys, key names, error translation and dead
 * letters. Internal: it may change in any release, and no public signature of queuekit mentions it.
 */
package io.queuekit.redis.internal;
