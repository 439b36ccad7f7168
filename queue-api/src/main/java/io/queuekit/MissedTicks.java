package io.queuekit;

/**
 * What a {@link Schedule} does about ticks that fell due while no {@link Scheduler} of its queue
 * was running, found by the first scheduler that starts again. Ticks that fall due while a
 * scheduler runs are never missed: each is stored before it is due, or stored late if the
 * scheduler was held up, as in a long garbage-collection pause.
 */
public enum MissedTicks {
    /** One message for all the ticks missed, due at once (under the id of the latest of them). */
    FIRE_ONCE,
    /** No message for missed ticks: the schedule goes on with its next tick to come. */
    SKIP
}
