package io.queuekit;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What a transport promises, stated as values so that tests can assert them and users can compare
 * transports side by side. The contract suite in {@code queue-tck} checks each promise both ways:
 * a transport that says it retains messages while no one consumes is shown to keep them, one that
 * says it does not is shown to drop them.
 *
 * <table>
 *   <caption>The transports as shipped</caption>
 *   <tr><th>transport</th><th>guarantee</th><th>ordering</th><th>retained</th><th>fan-out</th><th>delays</th></tr>
 *   <tr><td>redis-list</td><td>at-least-once (or at-most-once, chosen)</td><td>FIFO</td><td>yes</td><td>no</td><td>no</td></tr>
 *   <tr><td>redis-zset</td><td>at-least-once</td><td>due time</td><td>yes</td><td>no</td><td>yes</td></tr>
 *   <tr><td>redis-pubsub</td><td>at-most-once</td><td>publish order</td><td>no</td><td>yes</td><td>no</td></tr>
 *   <tr><td>redis-stream (a {@link Topic})</td><td>at-least-once per group</td><td>publish order</td><td>yes, for each group</td><td>yes, every group</td><td>no</td></tr>
 *   <tr><td>redis-stream (one {@link ConsumerGroup})</td><td>at-least-once</td><td>FIFO</td><td>yes</td><td>no: one consumer of the group</td><td>no</td></tr>
 *   <tr><td>redis-list or redis-zset with {@code shards(n)}</td><td>as unsharded</td><td>per key with {@code shardBy}, else none</td><td>yes</td><td>no</td><td>as unsharded</td></tr>
 *   <tr><td>in-memory</td><td colspan="5">the same as the Redis transport it stands in for</td></tr>
 * </table>
 *
 * @param transport short name of the transport, such as {@code redis-list}
 * @param guarantee how often a message that was stored reaches a consumer
 * @param ordering the order in which ready messages are handed out
 * @param retainedWithoutConsumers whether a message sent while no consumer or subscriber is
 *     present is kept until one comes (for a broadcaster: kept for each of its groups, a
 *     {@link Topic}'s, while none of the group's consumers runs)
 * @param fanOut whether every subscriber receives every message ({@code true}) or each message
 *     goes to one consumer ({@code false})
 * @param delays whether messages can be scheduled for a later time through {@link DelayQueue}
 *     (retries honour their delay on every queue transport either way)
 */
public record Semantics(
        String transport,
        Guarantee guarantee,
        Ordering ordering,
        boolean retainedWithoutConsumers,
        boolean fanOut,
        boolean delays) {

    public Semantics {
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(guarantee, "guarantee");
        Objects.requireNonNull(ordering, "ordering");
    }

    /** How often a stored message reaches a consumer. */
    public enum Guarantee {
        /**
         * Zero or one time: the message is removed when handed out, so a consumer that dies before
         * finishing it loses it, and nothing is redelivered.
         */
        AT_MOST_ONCE,
        /**
         * One or more times: a message stays in flight under a lease until acknowledged, and is
         * delivered again when the lease expires. Handlers must tolerate duplicates.
         */
        AT_LEAST_ONCE
    }

    /** The order in which ready messages are handed out. */
    public enum Ordering {
        /**
         * In send order. With several consumers messages are handed out in send order but may
         * finish in any order; a redelivered or retried message takes its place behind those
         * already waiting.
         */
        FIFO,
        /** By due time, messages due at the same moment in send order. */
        DUE_TIME,
        /** Each subscriber receives messages in publish order. */
        PUBLISH_ORDER,
        /**
         * Messages with the same key, as a sharded queue's {@code shardBy} function gives it, in the
         * order the queue hands out the messages of one shard: send order for a work queue, due
         * time for a delay queue, with the same caveats as {@link #FIFO} (with several consumers
         * they may finish in any order; a redelivered or retried message takes its place behind
         * those waiting). Messages with different keys come in no promised order, those sent
         * later possibly first. One consumer taking one message at a time therefore sees each
         * key's messages in order.
         */
        PER_KEY,
        /**
         * No order is promised: a message sent later may be handed out first (as by a queue stored
         * in several shards and read in turn, a Redis queue built with {@code shards(n)} and no
         * {@code shardBy}).
         */
        NONE
    }

    /** Whether this transport redelivers unacknowledged messages. */
    public boolean redelivers() {
        return guarantee == Guarantee.AT_LEAST_ONCE;
    }

    /**
     * A Markdown table comparing the given semantics, one row each, as printed in the README and by
     * the demo.
     */
    public static String markdownTable(List<Semantics> rows) {
        StringBuilder sb = new StringBuilder("""
                | transport | delivery | ordering | kept while no one listens | fan-out | delays |
                | --- | --- | --- | --- | --- | --- |
                """);
        for (Semantics s : rows) {
            sb.append("| ")
                    .append(s.transport)
                    .append(" | ")
                    .append(s.guarantee.name().toLowerCase(Locale.ROOT).replace('_', '-'))
                    .append(" | ")
                    .append(s.ordering.name().toLowerCase(Locale.ROOT).replace('_', ' '))
                    .append(" | ")
                    .append(yesNo(s.retainedWithoutConsumers))
                    .append(" | ")
                    .append(yesNo(s.fanOut))
                    .append(" | ")
                    .append(yesNo(s.delays))
                    .append(" |\n");
        }
        return sb.toString();
    }

    private static String yesNo(boolean b) {
        return b ? "yes" : "no";
    }
}
