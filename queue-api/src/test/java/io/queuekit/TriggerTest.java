package io.queuekit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class TriggerTest {
    private static final Instant T = Instant.parse("2026-12-05T10:07:30.250Z");

    @Test
    void every_ticksAtWholePeriodsFromTheEpoch_theSameOnEveryInstance() {
        Trigger t = Trigger.every(Duration.ofMinutes(5));
        assertThat(t.next(T)).isEqualTo(Instant.parse("2026-12-05T10:10:00Z"));
        assertThat(t.next(Instant.parse("2026-12-05T10:10:00Z"))).isEqualTo(Instant.parse("2026-12-05T10:15:00Z"));
        assertThat(t).hasToString("every PT5M from 1970-01-01T00:00:00Z");
    }

    @Test
    void every_fromAnAnchor_ticksAtTheAnchorPlusWholePeriods() {
        Trigger t = Trigger.every(Duration.ofHours(1), Instant.parse("2030-01-01T00:20:00Z"));
        assertThat(t.next(T)).isEqualTo(Instant.parse("2026-12-05T10:20:00Z"));
        assertThat(Trigger.parse(t.toString())).isEqualTo(t);
    }

    @Test
    void once_ticksOnce() {
        Instant at = Instant.parse("2026-12-24T18:00:00Z");
        Trigger t = Trigger.once(at);
        assertThat(t.next(T)).isEqualTo(at);
        assertThat(t.next(at)).isNull();
        assertThat(Trigger.parse("once 2026-12-24T18:00:00Z")).isEqualTo(t);
    }

    @Test
    void cron_namesWallClockTimesInItsZone() {
        Trigger t = Trigger.cron("0 30 2 * * *", ZoneId.of("Europe/Berlin"));
        assertThat(t.next(T)).isEqualTo(Instant.parse("2026-12-06T01:30:00Z"));
        assertThat(t).hasToString("cron Europe/Berlin 0 30 2 * * *");
        assertThat(Trigger.parse(t.toString())).isEqualTo(t);
        assertThat(Trigger.cron("*/15 * * * *").next(T)).isEqualTo(Instant.parse("2026-12-05T10:15:00Z"));
    }

    @Test
    void badInput_isRefused_sayingWhy() {
        assertThatThrownBy(() -> Trigger.every(Duration.ofMillis(99)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least");
        assertThatThrownBy(() -> Trigger.every(Duration.ofNanos(1_000_000_500L)))
                .hasMessageContaining("whole milliseconds");
        assertThatThrownBy(() -> Trigger.cron("0 0 0 L * *", ZoneId.of("UTC")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Trigger.parse("cron Mars/Olympus 0 0 * * *"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Mars/Olympus");
        assertThatThrownBy(() -> Trigger.parse("hourly")).hasMessageContaining("begins with");
        assertThatThrownBy(() -> Trigger.cron(null)).isInstanceOf(NullPointerException.class);
    }
}
