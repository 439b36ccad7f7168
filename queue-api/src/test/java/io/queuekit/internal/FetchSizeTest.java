package io.queuekit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FetchSizeTest {
    private static final long AT_ONCE = 100_000; // 0.1 ms
    private static final long WAITED = 50_000_000; // 50 ms
    private static final long QUICK = 1_000; // 1 us a message

    private static void singlesAtOnce(FetchSize s, int n, long handlerNanos) {
        for (int i = 0; i < n; i++) {
            s.fetched(1, 1, AT_ONCE, handlerNanos);
        }
    }

    @Test
    void oneAtATime_untilARunOfFetchesFindsAMessageWaiting_thenATry() {
        FetchSize s = new FetchSize();
        singlesAtOnce(s, FetchSize.RUN - 1, QUICK);
        assertThat(s.next()).isEqualTo(1);
        singlesAtOnce(s, 1, QUICK);
        assertThat(s.next()).isEqualTo(FetchSize.PROBE);
    }

    @Test
    void aFetchThatWaited_orFoundNothing_startsTheRunAgain() {
        FetchSize s = new FetchSize();
        singlesAtOnce(s, FetchSize.RUN - 1, QUICK);
        s.fetched(1, 1, WAITED, QUICK);
        singlesAtOnce(s, FetchSize.RUN - 1, QUICK);
        s.fetched(1, 0, AT_ONCE, 0);
        singlesAtOnce(s, FetchSize.RUN - 1, QUICK);
        assertThat(s.next()).isEqualTo(1);
    }

    @Test
    void fullFetches_double_upToTheMost_andOneThatFoundOneGoesBackToOne() {
        FetchSize s = new FetchSize();
        singlesAtOnce(s, FetchSize.RUN, QUICK);
        for (int want = FetchSize.PROBE; want < FetchSize.MAX; want *= 2) {
            assertThat(s.next()).isEqualTo(want);
            s.fetched(want, want, WAITED, want * QUICK); // a full batch is a queue, however long it took
        }
        assertThat(s.next()).isEqualTo(FetchSize.MAX);
        s.fetched(FetchSize.MAX, FetchSize.MAX, AT_ONCE, FetchSize.MAX * QUICK);
        assertThat(s.next()).isEqualTo(FetchSize.MAX);

        s.fetched(FetchSize.MAX, 1, AT_ONCE, QUICK);
        assertThat(s.next()).isEqualTo(1);
        singlesAtOnce(s, FetchSize.RUN, QUICK); // a queue was seen: the next try comes as soon
        assertThat(s.next()).isEqualTo(FetchSize.PROBE);
    }

    @Test
    void aBatchThatCameBackWithSeveral_keepsItsSize_thoughShort() {
        FetchSize s = new FetchSize();
        singlesAtOnce(s, FetchSize.RUN, QUICK);
        s.fetched(FetchSize.PROBE, FetchSize.PROBE, AT_ONCE, FetchSize.PROBE * QUICK);
        assertThat(s.next()).isEqualTo(2 * FetchSize.PROBE);
        for (int i = 0; i < 10; i++) { // delayed messages falling due a few at a time
            s.fetched(2 * FetchSize.PROBE, 3, AT_ONCE, 3 * QUICK);
            assertThat(s.next()).isEqualTo(2 * FetchSize.PROBE);
        }
        s.fetched(2 * FetchSize.PROBE, 1, AT_ONCE, QUICK);
        assertThat(s.next()).isEqualTo(1);
    }

    @Test
    void aTryThatCameBackShort_doublesTheRunBeforeTheNext() {
        FetchSize s = new FetchSize();
        singlesAtOnce(s, FetchSize.RUN, QUICK);
        s.fetched(FetchSize.PROBE, 1, AT_ONCE, QUICK);
        assertThat(s.next()).isEqualTo(1);
        singlesAtOnce(s, 2 * FetchSize.RUN - 1, QUICK);
        assertThat(s.next()).isEqualTo(1);
        singlesAtOnce(s, 1, QUICK);
        assertThat(s.next()).isEqualTo(FetchSize.PROBE);
    }

    @Test
    void aSlowHandler_takesOneAtATime_whateverWaits() {
        FetchSize s = new FetchSize();
        long slow = 5_000_000; // 5 ms a message, more than the work fetched ahead
        for (int i = 0; i < 10; i++) {
            s.fetched(1, 1, AT_ONCE, slow);
            assertThat(s.next()).isEqualTo(1);
        }
    }

    @Test
    void theHandlersPace_capsTheSize() {
        FetchSize s = new FetchSize();
        long each = FetchSize.AHEAD_NANOS / 8; // eight messages' work fits ahead
        singlesAtOnce(s, FetchSize.RUN, each);
        assertThat(s.next()).isEqualTo(FetchSize.PROBE);
        s.fetched(4, 4, AT_ONCE, 4 * each);
        s.fetched(8, 8, AT_ONCE, 8 * each);
        assertThat(s.next()).isEqualTo(8);
    }
}
