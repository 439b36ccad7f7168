/**
 * The queuekit SPI. Pick a transport module, build its entry class, and program against these
 * interfaces:
 * <ul>
 *   <li>{@link io.queuekit.MessageQueue}: a work queue, each message to one consumer;</li>
 *   <li>{@link io.queuekit.DelayQueue}: a work queue whose messages become ready at a due time;</li>
 *   <li>{@link io.queuekit.Broadcaster}: publish/subscribe, each message to every subscriber
 *       present.</li>
 * </ul>
 * What each transport promises is a {@link io.queuekit.Semantics} value, checked by the shared
 * contract suite ({@code queue-tck}) against every transport, including the in-memory one that
 * stands in for Redis in unit tests.
 */
package io.queuekit;
