package io.queuekit;

/**
 * Counts of a queue's messages at one moment. On Redis the four counts are read in one round trip
 * but not as one snapshot: under load they may not add up exactly.
 *
 * @param ready waiting to be handed out now
 * @param inFlight handed out and not yet settled
 * @param delayed scheduled for later, including retries waiting for their delay
 * @param dead in the dead letters
 */
public record QueueStats(long ready, long inFlight, long delayed, long dead) {

    /** All messages the queue holds: ready, in flight, delayed and dead. */
    public long total() {
        return ready + inFlight + delayed + dead;
    }
}
