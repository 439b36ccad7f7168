package io.queuekit;

/**
 * Counts of a queue's messages at one moment, and whether the queue is paused. On Redis the counts
 * and the pause are read in one round trip but not as one snapshot: under load they may not add up
 * exactly.
 *
 * @param ready waiting to be handed out now (while paused: as soon as the queue is resumed)
 * @param inFlight handed out and not yet settled
 * @param delayed scheduled for later, including retries waiting for their delay
 * @param dead in the dead letters
 * @param paused whether the queue is paused ({@link MessageQueue#pause()}): it keeps what is sent and
 *     hands nothing out
 */
public record QueueStats(long ready, long inFlight, long delayed, long dead, boolean paused) {

    /** Counts of a queue that is not paused. */
    public QueueStats(long ready, long inFlight, long delayed, long dead) {
        this(ready, inFlight, delayed, dead, false);
    }

    /** All messages the queue holds: ready, in flight, delayed and dead. */
    public long total() {
        return ready + inFlight + delayed + dead;
    }

    /** These counts, with the queue {@code paused} or not. */
    public QueueStats withPaused(boolean paused) {
        return new QueueStats(ready, inFlight, delayed, dead, paused);
    }
}
