package io.queuekit.internal;

/**
 * The one dead-letter retention rule of every queue transport: how many dead letters a queue
 * keeps, the oldest dropped first; 0 (keep none: a dead-lettered message is dropped at once) to
 * {@link #MAX}, {@link #DEFAULT} unless set.
 */
public final class DeadLetterRetention {
    /** Dead letters kept unless set. */
    public static final int DEFAULT = 10_000;
    /** The most that can be kept. */
    public static final int MAX = 100_000_000;

    private DeadLetterRetention() {}

    /** Refuses a retention outside 0 to {@link #MAX}, for a builder's {@code deadLetterRetention}. */
    public static int check(int messages) {
        return Checks.inRange(messages, 0, MAX, "dead-letter retention");
    }
}
