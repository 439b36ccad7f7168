package io.queuekit.internal;

/**
 * How many messages a worker of a consumer with {@link io.queuekit.ConsumeOptions#adaptiveBatch()}
 * fetches next. One at a time while fetches find no queue. A run of fetches of one that each came
 * back with a message at once suggests one: then it tries {@link #PROBE} at once; a batch that
 * comes back full doubles the next, up to {@link #MAX}, and one that comes back short goes back to
 * one at a time. A try that came back short was wrong about the queue (messages arriving fast
 * also make fetches return at once), so the run needed before the next try doubles, up to
 * {@link #MOST_RUN}: a fetch of several costs more than one of one where only one waits. A batch
 * that comes back with several, though short, keeps its size: it found a queue all the same, and
 * each batch saves the claims of all but one of what it took (under a steady load of delayed
 * messages no batch comes back full). Never more than {@link #AHEAD_NANOS} of handling by the
 * handler's recent pace. One per worker, used by its thread only.
 */
final class FetchSize {
    /** Most messages fetched at once. */
    static final int MAX = 32;
    /** The first batch tried: fewer save too little over fetches of one to be worth a try. */
    static final int PROBE = 4;
    /** About how much handling a worker takes ahead of itself. */
    static final long AHEAD_NANOS = 2_000_000;
    /** A fetch of one that returns a message sooner than this found one waiting. */
    static final long AT_ONCE_NANOS = 1_000_000;
    /** Fetches of one in a row that found a message waiting before the first try. */
    static final int RUN = 3;
    /** The longest run asked for after tries that came back short. */
    static final int MOST_RUN = 1024;

    private int size = 1;
    private int atOnce;
    private int run = RUN;
    private boolean trying;
    private long handlerNanos = -1;

    int next() {
        return size;
    }

    /**
     * After a fetch of {@code asked} that returned {@code got} within {@code fetchNanos}, whose
     * handlers took {@code handledNanos} in all.
     */
    void fetched(int asked, int got, long fetchNanos, long handledNanos) {
        if (got > 0) {
            long each = handledNanos / got;
            handlerNanos = handlerNanos < 0 ? each : (3 * handlerNanos + each) / 4;
        }
        long ahead = Math.max(1, Math.min(MAX, AHEAD_NANOS / Math.max(1, handlerNanos)));
        if (asked == 1) {
            atOnce = got == 1 && fetchNanos < AT_ONCE_NANOS ? atOnce + 1 : 0;
            if (atOnce >= run && ahead > 1) {
                size = (int) Math.min(ahead, PROBE);
                trying = true;
                atOnce = 0;
            }
            return;
        }
        if (got <= 1) {
            if (trying) {
                run = Math.min(MOST_RUN, 2 * run);
            }
            size = 1;
        } else {
            run = RUN;
            size = (int) Math.min(ahead, got < asked ? asked : 2L * asked);
        }
        trying = false;
    }
}
