package io.queuekit.internal;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A cron expression and the wall-clock times it names in a time zone.
 *
 * <p>Six fields as in Spring's {@code CronExpression} ({@code second minute hour day-of-month month
 * day-of-week}) or five as in Unix cron (the same without the second, which is then 0). A field is
 * {@code *}, a number, a range {@code a-b} or a list {@code a,b}, each with an optional step
 * ({@code *}{@code /n}, {@code a/n} up to the field's maximum, {@code a-b/n}); {@code ?} means
 * {@code *} in the two day fields. Months may be named {@code JAN}-{@code DEC} and days
 * {@code SUN}-{@code SAT}, in any case; in day-of-week 0 and 7 are Sunday, and as in Spring a range
 * that starts at Sunday ({@code SUN-SAT}, {@code 7-3}) starts at 0, and {@code *}{@code /n} steps
 * from Monday (1, 1+n, ... up to 7). The macros {@code @yearly}, {@code @annually},
 * {@code @monthly}, {@code @weekly} (Sunday), {@code @daily}, {@code @midnight} and {@code @hourly}
 * stand for their usual expressions. {@code L}, {@code W}, {@code #} and anything else are refused.
 *
 * <p>Day-of-month and day-of-week must both match, as in Spring (and unlike Unix cron, which fires
 * when either matches if both are restricted): {@code 0 0 0 13 * FRI} fires on Fridays the 13th
 * only, whether written with five fields or six. Spring differs in one place: it reads
 * {@code 7-7} ({@code SUN-SUN}) as every day; here it is Sunday.
 *
 * <p>The easy thing to get wrong is daylight saving time: see {@link #next(Instant, ZoneId)}.
 * Instances are immutable and thread-safe.
 */
public final class Cron {
    /** How far {@link #next} looks: ticks on a later local date are not returned. */
    private static final int HORIZON_YEARS = 10;

    private static final List<String> MONTH_NAMES =
            List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC");
    // Spring's numbering, Monday 1 to Sunday 7, so that SUN/2 and MON-SUN read as they do there
    private static final List<String> DAY_NAMES = List.of("MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN");

    private static final Pattern WHITESPACE = Pattern.compile("\\s+");
    private static final Pattern COMMA = Pattern.compile(",");

    private final String expression;
    // bit i set when value i matches; day-of-week bit 0 is Sunday
    private final long seconds;
    private final long minutes;
    private final long hours;
    private final long daysOfMonth;
    private final long months;
    private final long daysOfWeek;

    private Cron(String expression, long[] bits) {
        this.expression = expression;
        this.seconds = bits[0];
        this.minutes = bits[1];
        this.hours = bits[2];
        this.daysOfMonth = bits[3];
        this.months = bits[4];
        this.daysOfWeek = bits[5];
    }

    /**
     * Parses an expression; surrounding whitespace is ignored.
     *
     * @throws NullPointerException if {@code expression} is null
     * @throws IllegalArgumentException naming the field and the problem (an out-of-range value, a
     *     reversed range, a step of 0, an unsupported character or the wrong number of fields)
     */
    public static Cron parse(String expression) {
        Objects.requireNonNull(expression, "expression");
        String text = expression.trim();
        if (text.isEmpty()) {
            throw new IllegalArgumentException("cron expression is empty");
        }
        String[] parts = WHITESPACE.split(text.startsWith("@") ? macro(text) : text, -1);
        if (parts.length != 5 && parts.length != 6) {
            throw new IllegalArgumentException("cron expression has " + parts.length + " fields, expected 6 (second"
                    + " minute hour day-of-month month day-of-week) or 5 (without the second) in " + quote(text));
        }
        Field[] fields = Field.values();
        int skipped = 6 - parts.length;
        long[] bits = new long[6];
        bits[0] = 1L; // second 0 when the expression has five fields
        for (int i = 0; i < parts.length; i++) {
            bits[i + skipped] = fields[i + skipped].parse(parts[i], text);
        }
        return new Cron(text, bits);
    }

    private static String macro(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "@yearly", "@annually" -> "0 0 0 1 1 *";
            case "@monthly" -> "0 0 0 1 * *";
            case "@weekly" -> "0 0 0 * * 0";
            case "@daily", "@midnight" -> "0 0 0 * * *";
            case "@hourly" -> "0 0 * * * *";
            default ->
                throw new IllegalArgumentException("unknown cron macro " + quote(text)
                        + ", expected @yearly, @annually, @monthly, @weekly, @daily, @midnight or @hourly");
        };
    }

    /**
     * The first tick strictly after {@code after}, or null if there is none up to the same local
     * date ten years later (as for {@code 0 0 0 30 2 *}, which never fires, or {@code 0 0 0 29 2 MON},
     * which fires every 28 years or so).
     *
     * <p>Ticks are local wall-clock times in {@code zone}. A local time that does not exist, in the
     * gap where clocks spring forward, is skipped; one that occurs twice, in the overlap where
     * clocks fall back, fires once, at its first occurrence (the earlier offset). So an hourly
     * expression fires 23 times on the spring day and 24 on the autumn day, and a daily {@code 02:30}
     * does not fire on a spring day whose 02:30 is skipped. Applied repeatedly, {@code next}
     * returns ever later instants, none twice.
     *
     * @throws NullPointerException if an argument is null
     * @throws java.time.DateTimeException if {@code after} is beyond the range of {@link LocalDateTime}
     */
    public Instant next(Instant after, ZoneId zone) {
        Objects.requireNonNull(after, "after");
        ZoneRules rules = zone.getRules();
        ZoneOffset offset = rules.getOffset(after);
        LocalDateTime local = LocalDateTime.ofEpochSecond(after.getEpochSecond(), 0, offset);
        LocalDateTime from = local.plusSeconds(1);
        ZoneOffsetTransition transition = rules.getTransition(local);
        if (transition != null && transition.isOverlap() && offset.equals(transition.getOffsetAfter())) {
            // the second pass through the repeated local times: they fired on the first
            from = transition.getDateTimeBefore();
        }
        LocalDate lastDate = local.toLocalDate().plusYears(HORIZON_YEARS);
        while (true) {
            LocalDateTime tick = nextLocal(from, lastDate);
            if (tick == null) {
                return null;
            }
            ZoneOffsetTransition at = rules.getTransition(tick);
            if (at == null) {
                return tick.toInstant(rules.getOffset(tick));
            }
            if (at.isOverlap()) {
                return tick.toInstant(at.getOffsetBefore());
            }
            from = at.getDateTimeAfter(); // tick is in a gap: skip every local time in it
        }
    }

    /** The first matching local time at or after {@code from}, or null if none is on or before {@code lastDate}. */
    private LocalDateTime nextLocal(LocalDateTime from, LocalDate lastDate) {
        LocalDate date = from.toLocalDate();
        LocalTime time = from.toLocalTime();
        while (!date.isAfter(lastDate)) {
            if (!has(months, date.getMonthValue())) {
                date = date.withDayOfMonth(1).plusMonths(1);
            } else {
                if (has(daysOfMonth, date.getDayOfMonth())
                        && has(daysOfWeek, date.getDayOfWeek().getValue() % 7)) {
                    LocalTime tick = firstTimeFrom(time.getHour(), time.getMinute(), time.getSecond());
                    if (tick != null) {
                        return date.atTime(tick);
                    }
                }
                date = date.plusDays(1);
            }
            time = LocalTime.MIDNIGHT;
        }
        return null;
    }

    /** The first matching time of day at or after the one given, or null if none is left that day. */
    private LocalTime firstTimeFrom(int hour, int minute, int second) {
        for (int h = nextBit(hours, hour); h >= 0; h = nextBit(hours, h + 1)) {
            for (int m = nextBit(minutes, h == hour ? minute : 0); m >= 0; m = nextBit(minutes, m + 1)) {
                int s = nextBit(seconds, h == hour && m == minute ? second : 0);
                if (s >= 0) {
                    return LocalTime.of(h, m, s);
                }
            }
        }
        return null;
    }

    private static boolean has(long bits, int value) {
        return (bits >>> value & 1L) != 0;
    }

    private static int nextBit(long bits, int from) {
        if (from >= Long.SIZE) {
            return -1;
        }
        long left = bits & (-1L << from);
        return left == 0 ? -1 : Long.numberOfTrailingZeros(left);
    }

    /** The expression as given, trimmed: the text to store and show. */
    public String expression() {
        return expression;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Cron other && other.expression.equals(expression);
    }

    @Override
    public int hashCode() {
        return expression.hashCode();
    }

    @Override
    public String toString() {
        return expression;
    }

    private static String quote(String text) {
        return '"' + text + '"';
    }

    /** The six fields in the order of a six-field expression, with their ranges. */
    private enum Field {
        SECOND("second", 0, 59),
        MINUTE("minute", 0, 59),
        HOUR("hour", 0, 23),
        DAY_OF_MONTH("day-of-month", 1, 31),
        MONTH("month", 1, 12),
        DAY_OF_WEEK("day-of-week", 0, 7);

        private final String label;
        private final int min;
        private final int max;

        Field(String label, int min, int max) {
            this.label = label;
            this.min = min;
            this.max = max;
        }

        private List<String> names() {
            return this == MONTH ? MONTH_NAMES : this == DAY_OF_WEEK ? DAY_NAMES : List.of();
        }

        private boolean isDay() {
            return this == DAY_OF_MONTH || this == DAY_OF_WEEK;
        }

        long parse(String field, String text) {
            long bits = 0;
            for (String element : COMMA.split(field, -1)) {
                bits |= element(element, text);
            }
            if (this == DAY_OF_WEEK && has(bits, 7)) {
                bits = (bits | 1L) & ~(1L << 7);
            }
            return bits;
        }

        private long element(String element, String text) {
            if (element.isEmpty()) {
                throw problem("has an empty list element", text);
            }
            int slash = element.indexOf('/');
            String base = slash < 0 ? element : element.substring(0, slash);
            int from;
            int to;
            if (base.equals("*") || base.equals("?")) {
                if (base.equals("?") && !isDay()) {
                    throw problem("\"?\" is allowed only in day-of-month and day-of-week", text);
                }
                // Spring steps day-of-week's * from Monday, 1 to 7
                from = this == DAY_OF_WEEK ? 1 : min;
                to = max;
            } else {
                int dash = base.indexOf('-');
                if (dash < 0) {
                    from = value(base, text);
                    to = slash < 0 ? from : max;
                } else {
                    from = value(base.substring(0, dash), text);
                    to = value(base.substring(dash + 1), text);
                    if (this == DAY_OF_WEEK && from == 7 && to < 7) {
                        from = 0; // a range from Sunday starts at 0, as in Spring
                    }
                    if (from > to) {
                        throw problem("range " + base + " is reversed", text);
                    }
                }
            }
            int step = 1;
            if (slash >= 0) {
                String stepText = element.substring(slash + 1);
                step = number(stepText);
                if (step < 0) {
                    throw problem("step " + quote(stepText) + " is not a number", text);
                }
                if (step == 0) {
                    throw problem("step 0 must be at least 1", text);
                }
            }
            long bits = 0;
            for (int v = from; v <= to; v += step) {
                bits |= 1L << v;
            }
            return bits;
        }

        private int value(String token, String text) {
            int n = number(token);
            if (n < 0) {
                n = names().indexOf(token.toUpperCase(Locale.ROOT));
                if (n < 0) {
                    throw problem(quote(token) + unknownWhy(token), text);
                }
                return n + 1;
            }
            if (n < min || n > max) {
                throw problem(token + " is out of range " + min + "-" + max, text);
            }
            return n;
        }

        private String unknownWhy(String token) {
            if (isDay() && token.toUpperCase(Locale.ROOT).matches(".*[LW#].*")) {
                return " is not supported: L, W and # are not";
            }
            if (this == MONTH) {
                return " is neither a number nor a month name (JAN-DEC)";
            }
            if (this == DAY_OF_WEEK) {
                return " is neither a number nor a day name (SUN-SAT)";
            }
            return " is not a number";
        }

        private IllegalArgumentException problem(String what, String text) {
            return new IllegalArgumentException(label + " " + what + " in " + quote(text));
        }

        /** The value of a short string of ASCII digits, or -1 if it is anything else. */
        private static int number(String token) {
            if (token.isEmpty() || token.length() > 9) {
                return -1;
            }
            for (int i = 0; i < token.length(); i++) {
                char c = token.charAt(i);
                if (c < '0' || c > '9') {
                    return -1;
                }
            }
            return Integer.parseInt(token);
        }
    }
}
