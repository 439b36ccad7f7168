package io.queuekit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The daylight-saving rule of {@link Cron#next}: a local time in a spring-forward gap is skipped, one
 * in a fall-back overlap fires once, at its first occurrence. Transitions of 2026: Berlin springs
 * from 02:00 to 03:00 on 29 March and falls from 03:00 to 02:00 on 25 October; New York springs from
 * 02:00 to 03:00 on 8 March and falls from 02:00 to 01:00 on 1 November; Lord Howe Island falls
 * from 02:00 to 01:30 on 5 April and springs from 02:00 to 02:30 on 4 October.
 */
class CronDstTest {
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");
    private static final ZoneId LORD_HOWE = ZoneId.of("Australia/Lord_Howe");

    /** The first {@code n} ticks after an offset date-time, as offset date-times in the zone. */
    private static List<String> ticks(String expression, ZoneId zone, String after, int n) {
        Cron cron = Cron.parse(expression);
        Instant t = OffsetDateTime.parse(after).toInstant();
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n && t != null; i++) {
            t = cron.next(t, zone);
            out.add(t == null ? "none" : t.atZone(zone).toOffsetDateTime().toString());
        }
        return out;
    }

    @Nested
    @DisplayName("a local time in a spring-forward gap is skipped")
    class SpringForward {
        @Test
        void berlin_everyFifteenMinutes_andHourly() {
            assertThat(ticks("0 */15 * * * *", BERLIN, "2026-03-29T01:30+01:00", 3))
                    .containsExactly("2026-03-29T01:45+01:00", "2026-03-29T03:00+02:00", "2026-03-29T03:15+02:00");
            assertThat(ticks("0 0 * * * *", BERLIN, "2026-03-29T00:30+01:00", 3))
                    .containsExactly("2026-03-29T01:00+01:00", "2026-03-29T03:00+02:00", "2026-03-29T04:00+02:00");
        }

        @Test
        void berlin_dailyAt0230_skipsTheSpringDay() {
            assertThat(ticks("0 30 2 * * *", BERLIN, "2026-03-28T12:00+01:00", 2))
                    .containsExactly("2026-03-30T02:30+02:00", "2026-03-31T02:30+02:00");
        }

        @Test
        void newYork_everyFifteenMinutes_hourly_andDailyAt0230() {
            assertThat(ticks("*/15 * * * *", NEW_YORK, "2026-03-08T01:30-05:00", 3))
                    .containsExactly("2026-03-08T01:45-05:00", "2026-03-08T03:00-04:00", "2026-03-08T03:15-04:00");
            assertThat(ticks("0 * * * *", NEW_YORK, "2026-03-08T00:30-05:00", 3))
                    .containsExactly("2026-03-08T01:00-05:00", "2026-03-08T03:00-04:00", "2026-03-08T04:00-04:00");
            assertThat(ticks("30 2 * * *", NEW_YORK, "2026-03-07T12:00-05:00", 2))
                    .containsExactly("2026-03-09T02:30-04:00", "2026-03-10T02:30-04:00");
        }

        @Test
        void lordHowe_halfHourGap() {
            assertThat(ticks("0 */15 * * * *", LORD_HOWE, "2026-10-04T01:30+10:30", 3))
                    .containsExactly("2026-10-04T01:45+10:30", "2026-10-04T02:30+11:00", "2026-10-04T02:45+11:00");
            // 02:00 does not exist that day, so an hourly expression skips it
            assertThat(ticks("0 0 * * * *", LORD_HOWE, "2026-10-04T00:30+10:30", 3))
                    .containsExactly("2026-10-04T01:00+10:30", "2026-10-04T03:00+11:00", "2026-10-04T04:00+11:00");
            // 02:30 is the first time after the gap and exists; 02:15 does not
            assertThat(ticks("0 30 2 * * *", LORD_HOWE, "2026-10-03T12:00+10:30", 2))
                    .containsExactly("2026-10-04T02:30+11:00", "2026-10-05T02:30+11:00");
            assertThat(ticks("0 15 2 * * *", LORD_HOWE, "2026-10-03T12:00+10:30", 2))
                    .containsExactly("2026-10-05T02:15+11:00", "2026-10-06T02:15+11:00");
        }

        @Test
        void fromJustBeforeTheGap_theNextIsTheFirstTimeAfterIt() {
            assertThat(ticks("* * * * * *", BERLIN, "2026-03-29T01:59:59+01:00", 2))
                    .containsExactly("2026-03-29T03:00+02:00", "2026-03-29T03:00:01+02:00");
        }
    }

    @Nested
    @DisplayName("a local time in a fall-back overlap fires once, at its first occurrence")
    class FallBack {
        @Test
        void berlin_everyFifteenMinutes_andHourly() {
            assertThat(ticks("0 */15 * * * *", BERLIN, "2026-10-25T01:30+02:00", 7))
                    .containsExactly(
                            "2026-10-25T01:45+02:00",
                            "2026-10-25T02:00+02:00",
                            "2026-10-25T02:15+02:00",
                            "2026-10-25T02:30+02:00",
                            "2026-10-25T02:45+02:00",
                            "2026-10-25T03:00+01:00",
                            "2026-10-25T03:15+01:00");
            assertThat(ticks("0 0 * * * *", BERLIN, "2026-10-25T00:30+02:00", 4))
                    .containsExactly(
                            "2026-10-25T01:00+02:00",
                            "2026-10-25T02:00+02:00",
                            "2026-10-25T03:00+01:00",
                            "2026-10-25T04:00+01:00");
        }

        @Test
        void berlin_dailyAt0230_firesOnceOnTheAutumnDay() {
            assertThat(ticks("0 30 2 * * *", BERLIN, "2026-10-24T12:00+02:00", 2))
                    .containsExactly("2026-10-25T02:30+02:00", "2026-10-26T02:30+01:00");
        }

        @Test
        void newYork_everyFifteenMinutes_hourly_andDailyAt0130() {
            assertThat(ticks("*/15 * * * *", NEW_YORK, "2026-11-01T00:50-04:00", 6))
                    .containsExactly(
                            "2026-11-01T01:00-04:00",
                            "2026-11-01T01:15-04:00",
                            "2026-11-01T01:30-04:00",
                            "2026-11-01T01:45-04:00",
                            "2026-11-01T02:00-05:00",
                            "2026-11-01T02:15-05:00");
            assertThat(ticks("0 * * * *", NEW_YORK, "2026-11-01T00:30-04:00", 3))
                    .containsExactly("2026-11-01T01:00-04:00", "2026-11-01T02:00-05:00", "2026-11-01T03:00-05:00");
            assertThat(ticks("30 1 * * *", NEW_YORK, "2026-10-31T12:00-04:00", 2))
                    .containsExactly("2026-11-01T01:30-04:00", "2026-11-02T01:30-05:00");
            assertThat(ticks("30 2 * * *", NEW_YORK, "2026-10-31T12:00-04:00", 2))
                    .containsExactly("2026-11-01T02:30-05:00", "2026-11-02T02:30-05:00");
        }

        @Test
        void lordHowe_halfHourOverlap() {
            assertThat(ticks("0 */15 * * * *", LORD_HOWE, "2026-04-05T01:00+11:00", 5))
                    .containsExactly(
                            "2026-04-05T01:15+11:00",
                            "2026-04-05T01:30+11:00",
                            "2026-04-05T01:45+11:00",
                            "2026-04-05T02:00+10:30",
                            "2026-04-05T02:15+10:30");
            assertThat(ticks("0 0 * * * *", LORD_HOWE, "2026-04-05T00:30+11:00", 3))
                    .containsExactly("2026-04-05T01:00+11:00", "2026-04-05T02:00+10:30", "2026-04-05T03:00+10:30");
            assertThat(ticks("0 45 1 * * *", LORD_HOWE, "2026-04-04T12:00+11:00", 2))
                    .containsExactly("2026-04-05T01:45+11:00", "2026-04-06T01:45+10:30");
            assertThat(ticks("0 30 2 * * *", LORD_HOWE, "2026-04-04T12:00+11:00", 2))
                    .containsExactly("2026-04-05T02:30+10:30", "2026-04-06T02:30+10:30");
        }

        @ParameterizedTest(name = "{0} from {1}")
        @CsvSource({
            // from inside the second pass: the repeated local times fired on the first
            "Europe/Berlin,       2026-10-25T02:10+01:00, 2026-10-25T03:00+01:00",
            "Europe/Berlin,       2026-10-25T02:59:59+01:00, 2026-10-25T03:00+01:00",
            "America/New_York,    2026-11-01T01:00-05:00, 2026-11-01T02:00-05:00",
            "Australia/Lord_Howe, 2026-04-05T01:30+10:30, 2026-04-05T02:00+10:30",
            // from inside the first pass: the rest of it comes first
            "Europe/Berlin,       2026-10-25T02:10+02:00, 2026-10-25T02:15+02:00",
            "Australia/Lord_Howe, 2026-04-05T01:40+11:00, 2026-04-05T01:45+11:00",
        })
        void fromInsideTheOverlap(String zone, String after, String next) {
            assertThat(ticks("0 */15 * * * *", ZoneId.of(zone), after, 1)).containsExactly(next);
        }
    }

    @Nested
    @DisplayName("applied repeatedly, next never repeats or goes back, and counts each local time once")
    class Sequence {
        @ParameterizedTest(name = "{0}")
        @CsvSource({
            // a year of quarter hours, less the gap's: 4 in an hour's gap, 2 in Lord Howe's half hour
            "UTC,                 35040",
            "Europe/Berlin,       35036",
            "America/New_York,    35036",
            "Australia/Lord_Howe, 35038",
        })
        void aYearOfQuarterHours(String zone, int count) {
            ZoneId id = ZoneId.of(zone);
            Cron cron = Cron.parse("*/15 * * * *");
            Instant t = LocalDate.of(2026, 1, 1).atStartOfDay(id).toInstant().minusSeconds(1);
            Instant end = LocalDate.of(2027, 1, 1).atStartOfDay(id).toInstant();
            int n = 0;
            while (true) {
                Instant next = cron.next(t, id);
                assertThat(next).isAfter(t);
                if (!next.isBefore(end)) {
                    break;
                }
                t = next;
                n++;
            }
            assertThat(n).isEqualTo(count);
        }
    }
}
