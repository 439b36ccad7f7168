package io.queuekit.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/** The rule for failures repeated on every retry, on a virtual clock. */
@Timeout(10)
class RateLimitedLogTest {
    private static final Duration PERIOD = Duration.ofSeconds(10);
    private static final RuntimeException DOWN = new IllegalStateException("Redis is down");

    private final Recording logger = new Recording();
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final RateLimitedLog log = new RateLimitedLog(logger, PERIOD, nanos::get);

    /** One call that reached the logger. */
    record Line(Level level, String text, Throwable thrown) {}

    /** A logger that keeps what it is given, with DEBUG on. */
    static final class Recording extends LegacyAbstractLogger {
        private static final long serialVersionUID = 1L;

        final List<Line> lines = new ArrayList<>();

        synchronized List<Line> at(Level level) {
            return lines.stream().filter(l -> l.level() == level).toList();
        }

        @Override
        protected synchronized void handleNormalizedLoggingCall(
                Level level, Marker marker, String pattern, Object[] arguments, Throwable thrown) {
            lines.add(new Line(level, MessageFormatter.basicArrayFormat(pattern, arguments), thrown));
        }

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        public boolean isTraceEnabled() {
            return false;
        }

        @Override
        public boolean isDebugEnabled() {
            return true;
        }

        @Override
        public boolean isInfoEnabled() {
            return true;
        }

        @Override
        public boolean isWarnEnabled() {
            return true;
        }

        @Override
        public boolean isErrorEnabled() {
            return true;
        }
    }

    private void advance(Duration d) {
        nanos.addAndGet(d.toNanos());
    }

    private void fail(int times) {
        for (int i = 0; i < times; i++) {
            log.failed("queuekit orders: fetch failed, retrying", DOWN);
        }
    }

    @Nested
    @DisplayName("a failure repeated on every retry")
    class Failures {

        @Test
        void first_isLoggedWithItsStackTrace_andTheRestOfThePeriodOnlyAtDebug() {
            fail(50);

            assertThat(logger.at(Level.WARN)).singleElement().satisfies(l -> {
                assertThat(l.text()).isEqualTo("queuekit orders: fetch failed, retrying");
                assertThat(l.thrown()).isSameAs(DOWN);
            });
            assertThat(logger.at(Level.DEBUG)).hasSize(49).allSatisfy(l -> {
                assertThat(l.text()).isEqualTo("queuekit orders: fetch failed, retrying: " + DOWN);
                assertThat(l.thrown()).isNull();
            });
        }

        @Test
        void afterThePeriod_oneLineWithoutStackTrace_countsWhatWasLeftOut() {
            fail(40);
            advance(Duration.ofSeconds(5));
            fail(10);
            advance(Duration.ofSeconds(5));
            fail(1);
            advance(PERIOD.minusMillis(1));
            fail(7);
            advance(Duration.ofMillis(1));
            fail(1);

            List<Line> warn = logger.at(Level.WARN);
            assertThat(warn).hasSize(3);
            assertThat(warn.get(1).text())
                    .isEqualTo("queuekit orders: fetch failed, retrying: " + DOWN
                            + " (49 more since the last report, not logged)");
            assertThat(warn.get(2).text())
                    .isEqualTo("queuekit orders: fetch failed, retrying: " + DOWN
                            + " (7 more since the last report, not logged)");
            assertThat(warn.subList(1, 3)).extracting(Line::thrown).containsOnlyNulls();
        }

        @Test
        void manyThreadsFailingAtOnce_logOneStackTrace() throws Exception {
            int threads = 8;
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> workers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                Thread t = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    fail(1_000);
                });
                t.start();
                workers.add(t);
            }
            start.countDown();
            for (Thread t : workers) {
                t.join(TimeUnit.SECONDS.toMillis(5));
            }

            assertThat(logger.at(Level.WARN))
                    .singleElement()
                    .extracting(Line::thrown)
                    .isSameAs(DOWN);
            assertThat(logger.at(Level.DEBUG)).hasSize(threads * 1_000 - 1);
        }

        @Test
        void recovered_logsOneLine_withHowManyFailedAndForHowLong() {
            fail(3);
            advance(Duration.ofSeconds(8));
            fail(2);
            advance(Duration.ofSeconds(5));
            log.recovered("queuekit {}: fetching works again", "orders");
            log.recovered("queuekit {}: fetching works again", "orders");

            assertThat(logger.at(Level.INFO)).singleElement().satisfies(l -> {
                assertThat(l.text())
                        .isEqualTo("queuekit orders: fetching works again after 5 failed attempt(s) over PT13S");
                assertThat(l.thrown()).isNull();
            });
        }

        @Test
        void recovered_withoutFailures_logsNothing() {
            log.recovered("queuekit {}: fetching works again", "orders");

            assertThat(logger.lines).isEmpty();
        }

        @Test
        void afterRecovery_theNextOutageHasItsStackTraceAgain() {
            fail(3);
            log.recovered("queuekit {}: fetching works again", "orders");
            advance(PERIOD);
            fail(2);

            List<Line> warn = logger.at(Level.WARN);
            assertThat(warn).hasSize(2);
            assertThat(warn).extracting(Line::thrown).containsExactly(DOWN, DOWN);
        }

        @Test
        void failingAndWorkingByTurns_logsAtMostOneWarningAndOneRecoveryPerPeriod() {
            for (int i = 0; i < 100; i++) {
                fail(1);
                log.recovered("queuekit {}: fetching works again", "orders");
                advance(Duration.ofMillis(50));
            }

            assertThat(logger.at(Level.WARN))
                    .singleElement()
                    .extracting(Line::thrown)
                    .isSameAs(DOWN);
            assertThat(logger.at(Level.INFO))
                    .singleElement()
                    .extracting(Line::text)
                    .isEqualTo("queuekit orders: fetching works again after 1 failed attempt(s) over PT0S");

            advance(PERIOD);
            fail(1);
            assertThat(logger.at(Level.WARN)).hasSize(2).last().satisfies(l -> {
                assertThat(l.text())
                        .isEqualTo("queuekit orders: fetch failed, retrying"
                                + " (99 more since the last report, not logged)");
                assertThat(l.thrown()).isSameAs(DOWN);
            });
        }

        @Test
        void failuresAPeriodApart_eachKeepTheirStackTrace() {
            fail(1);
            advance(PERIOD);
            fail(1);
            advance(PERIOD.multipliedBy(3));
            fail(1);

            assertThat(logger.at(Level.WARN))
                    .hasSize(3)
                    .extracting(Line::thrown)
                    .containsOnly(DOWN);
        }
    }

    @Nested
    @DisplayName("lines the caller writes")
    class CallersLines {

        @Test
        void tryAcquire_letsOneThroughPerPeriod_withTheCountHeldBack() {
            assertThat(log.tryAcquire()).isZero();
            assertThat(log.tryAcquire()).isEqualTo(-1);
            assertThat(log.tryAcquire()).isEqualTo(-1);
            advance(PERIOD);
            assertThat(log.tryAcquire()).isEqualTo(2);
            assertThat(log.tryAcquire()).isEqualTo(-1);
        }

        @Test
        void holdOff_holdsBackForAPeriodFromNow() {
            log.holdOff();
            assertThat(log.tryAcquire()).isEqualTo(-1);
            advance(PERIOD.minusMillis(1));
            assertThat(log.tryAcquire()).isEqualTo(-1);
            advance(Duration.ofMillis(1));
            assertThat(log.tryAcquire()).isEqualTo(2);
        }

        @Test
        void more_saysHowManyWereHeldBack_andNothingForNone() {
            assertThat(RateLimitedLog.more(0)).isEmpty();
            assertThat(RateLimitedLog.more(3)).isEqualTo(" (3 more since the last report, not logged)");
        }
    }

    @Test
    void period_mustBePositive() {
        assertThatThrownBy(() -> new RateLimitedLog(logger, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("period must be positive: PT0S");
    }
}
