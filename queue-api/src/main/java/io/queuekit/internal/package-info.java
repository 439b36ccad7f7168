/**
 * Machinery every queuekit transport shares: the managed consumers, lease renewal, argument
 * checks, codec calls and rate-limited logging. Internal: it may change in any release, and no
 * public signature of queuekit mentions it. Applications do not use it.
 */
package io.queuekit.internal;
