/**
 * Machinery every queuekit transport shares: the queue runtime (lifecycle, consumers, metrics,
 * payloads, dead letters) over the narrow store each transport implements, the broadcast runtime
 * (lifecycle, listener threads and their bounded inboxes, guarded metrics), lease renewal, argument
 * checks, codec calls, the settle-once guard, the payload, delay and dead-letter retention limits,
 * dead-letter decoding, rate-limited logging, and cron expressions in time zones: each written
 * once, so the transports cannot drift apart. Internal: it may change in any release, and no public signature of queuekit
 * mentions it. Applications do not use it.
 */
package io.queuekit.internal;
