package io.queuekit.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CronTest {
    private static final ZoneId UTC = ZoneOffset.UTC;

    /** The first {@code n} ticks after a UTC local time, as local times. */
    static List<String> ticks(String expression, String after, int n) {
        Cron cron = Cron.parse(expression);
        Instant t = LocalDateTime.parse(after).toInstant(ZoneOffset.UTC);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            t = cron.next(t, UTC);
            out.add(t == null ? "none" : LocalDateTime.ofInstant(t, UTC).toString());
            if (t == null) {
                break;
            }
        }
        return out;
    }

    @Nested
    @DisplayName("parse refuses what it does not support, naming the field and the problem")
    class Errors {
        @ParameterizedTest
        @CsvSource(
                delimiter = '|',
                value = {
                    "0 0 0 32 * *    | day-of-month 32 is out of range 1-31 in \"0 0 0 32 * *\"",
                    "60 * * * * *    | second 60 is out of range 0-59 in \"60 * * * * *\"",
                    "60 * * * *      | minute 60 is out of range 0-59",
                    "0 0 24 * * *    | hour 24 is out of range 0-23",
                    "0 0 0 0 * *     | day-of-month 0 is out of range 1-31",
                    "0 0 0 * 13 *    | month 13 is out of range 1-12",
                    "0 0 0 * 0 *     | month 0 is out of range 1-12",
                    "0 0 0 * * 8     | day-of-week 8 is out of range 0-7",
                    "0 0 5-2 * * *   | hour range 5-2 is reversed",
                    "0 0 0 * * FRI-MON | day-of-week range FRI-MON is reversed",
                    "0 */0 * * * *   | minute step 0 must be at least 1",
                    "0 1/x * * * *   | minute step \"x\" is not a number",
                    "0 0 0 L * *     | day-of-month \"L\" is not supported: L, W and # are not",
                    "0 0 0 15W * *   | day-of-month \"15W\" is not supported: L, W and # are not",
                    "0 0 0 * * 5L    | day-of-week \"5L\" is not supported: L, W and # are not",
                    "0 0 0 * * MON#2 | day-of-week \"MON#2\" is not supported: L, W and # are not",
                    "0 0 0 * FOO *   | month \"FOO\" is neither a number nor a month name (JAN-DEC)",
                    "0 0 0 * MON *   | month \"MON\" is neither a number nor a month name (JAN-DEC)",
                    "0 0 0 * * JAN   | day-of-week \"JAN\" is neither a number nor a day name (SUN-SAT)",
                    "0 x * * * *     | minute \"x\" is not a number",
                    "0 -1 * * * *    | minute \"\" is not a number",
                    "0 +1 * * * *    | minute \"+1\" is not a number",
                    "1,,2 * * * *    | minute has an empty list element",
                    "0 1, * * * *    | minute has an empty list element",
                    "? * * * * *     | second \"?\" is allowed only in day-of-month and day-of-week",
                    "* * * *         | cron expression has 4 fields, expected 6",
                    "0 0 0 * * * 2026 | cron expression has 7 fields, expected 6",
                    "@reboot         | unknown cron macro \"@reboot\"",
                    "@daily 0        | unknown cron macro \"@daily 0\"",
                })
        void refused(String expression, String message) {
            assertThatThrownBy(() -> Cron.parse(expression))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(message);
        }

        @ParameterizedTest
        @ValueSource(strings = {"", "   ", "\t"})
        void empty_isRefused(String expression) {
            assertThatThrownBy(() -> Cron.parse(expression))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("cron expression is empty");
        }

        @Test
        void null_isRefusedWithNullPointerException() {
            assertThatThrownBy(() -> Cron.parse(null)).isInstanceOf(NullPointerException.class);
            Cron cron = Cron.parse("@hourly");
            assertThatThrownBy(() -> cron.next(null, UTC)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> cron.next(Instant.EPOCH, null)).isInstanceOf(NullPointerException.class);
        }
    }

    @Nested
    @DisplayName("an expression keeps its text, trimmed, for equality and display")
    class Text {
        @Test
        void expression_isTheTrimmedText_andEqualityFollowsIt() {
            Cron cron = Cron.parse("  0 */5 * * * MON-FRI \n");
            assertThat(cron.expression()).isEqualTo("0 */5 * * * MON-FRI");
            assertThat(cron).hasToString("0 */5 * * * MON-FRI");
            assertThat(cron)
                    .isEqualTo(Cron.parse("0 */5 * * * MON-FRI"))
                    .hasSameHashCodeAs(Cron.parse("0 */5 * * * MON-FRI"));
            assertThat(cron).isNotEqualTo(Cron.parse("0 */5 * * * 1-5")); // the same ticks, another text
            assertThat(Cron.parse("@Daily").expression()).isEqualTo("@Daily");
        }
    }

    @Nested
    @DisplayName("next finds the known sequences")
    class Sequences {
        @Test
        void everyFifteenSeconds() {
            assertThat(ticks("*/15 * * * * *", "2026-01-01T00:00:00", 5))
                    .containsExactly(
                            "2026-01-01T00:00:15",
                            "2026-01-01T00:00:30",
                            "2026-01-01T00:00:45",
                            "2026-01-01T00:01",
                            "2026-01-01T00:01:15");
        }

        @Test
        void fiveFields_areUnixCron_withSecondZero() {
            assertThat(ticks("*/20 9-10 * * *", "2026-01-01T09:30:00", 4))
                    .containsExactly("2026-01-01T09:40", "2026-01-01T10:00", "2026-01-01T10:20", "2026-01-01T10:40");
            assertThat(ticks("30 8 * * 1-5", "2026-01-02T08:30:00", 2)) // Friday: the next is Monday
                    .containsExactly("2026-01-05T08:30", "2026-01-06T08:30");
        }

        @Test
        void next_isStrictlyAfter_evenWithinTheSecond() {
            Cron cron = Cron.parse("0 0 12 * * *");
            Instant noon = Instant.parse("2026-01-01T12:00:00Z");
            assertThat(cron.next(noon, UTC)).isEqualTo("2026-01-02T12:00:00Z");
            assertThat(cron.next(noon.minusNanos(1), UTC)).isEqualTo(noon);
            assertThat(cron.next(noon.plusNanos(1), UTC)).isEqualTo("2026-01-02T12:00:00Z");
        }

        @Test
        void listsRangesAndSteps() {
            assertThat(ticks("0 5,10-12,50/5 3 * * *", "2026-01-01T00:00:00", 7))
                    .containsExactly(
                            "2026-01-01T03:05",
                            "2026-01-01T03:10",
                            "2026-01-01T03:11",
                            "2026-01-01T03:12",
                            "2026-01-01T03:50",
                            "2026-01-01T03:55",
                            "2026-01-02T03:05");
            assertThat(ticks("0 0 1-12/5 * * *", "2026-01-01T00:00:00", 4))
                    .containsExactly("2026-01-01T01:00", "2026-01-01T06:00", "2026-01-01T11:00", "2026-01-02T01:00");
        }

        @Test
        void namesInAnyCase() {
            assertThat(ticks("0 0 0 1 feb,Apr-JUN/2 *", "2026-01-01T00:00:00", 3))
                    .containsExactly("2026-02-01T00:00", "2026-04-01T00:00", "2026-06-01T00:00");
            assertThat(ticks("0 0 0 * * sat,Sun", "2026-01-01T00:00:00", 3)) // 2026-01-03 is a Saturday
                    .containsExactly("2026-01-03T00:00", "2026-01-04T00:00", "2026-01-10T00:00");
        }

        @Test
        void sundayIs0Or7_andARangeFromSundayStartsAt0() {
            List<String> sundays = List.of("2026-01-04T00:00", "2026-01-11T00:00");
            assertThat(ticks("0 0 0 * * 0", "2026-01-01T00:00:00", 2)).isEqualTo(sundays);
            assertThat(ticks("0 0 0 * * 7", "2026-01-01T00:00:00", 2)).isEqualTo(sundays);
            assertThat(ticks("0 0 0 * * SUN", "2026-01-01T00:00:00", 2)).isEqualTo(sundays);
            assertThat(ticks("0 0 0 * * SUN-MON", "2026-01-01T00:00:00", 3))
                    .containsExactly("2026-01-04T00:00", "2026-01-05T00:00", "2026-01-11T00:00");
            assertThat(ticks("0 0 0 * * 5-7", "2026-01-01T00:00:00", 4))
                    .containsExactly("2026-01-02T00:00", "2026-01-03T00:00", "2026-01-04T00:00", "2026-01-09T00:00");
        }

        @Test
        void sundayToSunday_isSundayOnly_notEveryDayAsInSpring() {
            List<String> sundays = List.of("2026-01-04T00:00", "2026-01-11T00:00");
            assertThat(ticks("0 0 0 * * 7-7", "2026-01-01T00:00:00", 2)).isEqualTo(sundays);
            assertThat(ticks("0 0 0 * * SUN-SUN", "2026-01-01T00:00:00", 2)).isEqualTo(sundays);
        }

        @Test
        void dayOfWeekSteps_countFromMonday_asInSpring() {
            // */2 is 1,3,5,7: Monday, Wednesday, Friday, Sunday; 2026-01-01 is a Thursday
            assertThat(ticks("0 0 0 * * */2", "2026-01-01T00:00:00", 4))
                    .containsExactly("2026-01-02T00:00", "2026-01-04T00:00", "2026-01-05T00:00", "2026-01-07T00:00");
        }

        @Test
        void dayOfMonthAndDayOfWeek_mustBothMatch() {
            assertThat(ticks("0 0 0 13 * FRI", "2026-01-01T00:00:00", 3))
                    .containsExactly("2026-02-13T00:00", "2026-03-13T00:00", "2026-11-13T00:00");
            assertThat(ticks("0 0 13 * 5", "2026-01-01T00:00:00", 1)).containsExactly("2026-02-13T00:00");
            assertThat(ticks("0 0 0 ? * FRI", "2026-01-01T00:00:00", 1)).containsExactly("2026-01-02T00:00");
            assertThat(ticks("0 0 0 13 * ?", "2026-01-01T00:00:00", 1)).containsExactly("2026-01-13T00:00");
        }

        @Test
        void monthEnds_andLeapDays() {
            assertThat(ticks("0 0 0 31 * *", "2026-01-31T00:00:00", 3))
                    .containsExactly("2026-03-31T00:00", "2026-05-31T00:00", "2026-07-31T00:00");
            assertThat(ticks("0 0 0 29 2 *", "2026-01-01T00:00:00", 2))
                    .containsExactly("2028-02-29T00:00", "2032-02-29T00:00");
            assertThat(ticks("59 59 23 31 12 *", "2026-12-31T23:59:58", 2))
                    .containsExactly("2026-12-31T23:59:59", "2027-12-31T23:59:59");
        }

        @ParameterizedTest
        @CsvSource({
            "@yearly,   2027-01-01T00:00",
            "@annually, 2027-01-01T00:00",
            "@monthly,  2026-06-01T00:00",
            "@weekly,   2026-05-17T00:00",
            "@daily,    2026-05-16T00:00",
            "@midnight, 2026-05-16T00:00",
            "@hourly,   2026-05-15T11:00",
            "@HOURLY,   2026-05-15T11:00",
        })
        void macros(String macro, String next) {
            assertThat(ticks(macro, "2026-05-15T10:20:30", 1)).containsExactly(next); // a Friday
        }
    }

    @Nested
    @DisplayName("next is bounded: ten years ahead at most, and quick for rare and impossible expressions")
    class Bounded {
        @Test
        void impossible_isNull() {
            assertThat(ticks("0 0 0 30 2 *", "2026-01-01T00:00:00", 1)).containsExactly("none");
            assertThat(ticks("0 0 0 31 4,6,9,11 *", "2026-01-01T00:00:00", 1)).containsExactly("none");
        }

        @Test
        void rare_withinTenYears_isFound_beyond_isNull() {
            // a Monday the 29th of February: 2016, then 2044
            assertThat(ticks("0 0 0 29 2 MON", "2015-01-01T00:00:00", 1)).containsExactly("2016-02-29T00:00");
            assertThat(ticks("0 0 0 29 2 MON", "2034-03-01T00:00:00", 1)).containsExactly("2044-02-29T00:00");
            assertThat(ticks("0 0 0 29 2 MON", "2026-01-01T00:00:00", 1)).containsExactly("none");
        }

        @Test
        void theHorizon_isTheSameLocalDateTenYearsLater() {
            // a Monday the 1st of March: 2038, then 2049
            assertThat(ticks("0 0 0 1 3 MON", "2039-03-01T00:00:00", 1)).containsExactly("2049-03-01T00:00");
            assertThat(ticks("0 0 0 1 3 MON", "2039-03-01T00:00:01", 1)).containsExactly("2049-03-01T00:00");
            assertThat(ticks("0 0 0 1 3 MON", "2039-03-01T23:59:59", 1)).containsExactly("2049-03-01T00:00");
            assertThat(ticks("0 0 0 1 3 MON", "2038-03-01T00:00:00", 1)).containsExactly("none");
            assertThat(ticks("0 0 0 1 3 MON", "2038-03-02T00:00:00", 1)).containsExactly("none");
        }

        @Test
        void rare_fromManyStarts_isAlwaysAMondayTheTwentyNinthOrNull() {
            // a loop over the seconds of ten years would not end within the test's time
            Cron cron = Cron.parse("59 59 23 29 2 MON");
            ZoneId berlin = ZoneId.of("Europe/Berlin");
            for (int day = 0; day < 20_000; day += 7) {
                Instant tick = cron.next(Instant.parse("1990-01-01T00:00:00Z").plusSeconds(day * 86_400L), berlin);
                if (tick != null) {
                    assertThat(tick.atZone(berlin).toLocalDateTime().toString()).matches("\\d{4}-02-29T23:59:59");
                    assertThat(tick.atZone(berlin).getDayOfWeek()).isEqualTo(java.time.DayOfWeek.MONDAY);
                }
            }
        }
    }
}
