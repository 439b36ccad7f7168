package io.queuekit.inmemory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class ManualClockTest {

    @Test
    void standsStill_untilAdvanced() {
        ManualClock clock = new ManualClock(Instant.parse("2031-05-01T10:00:00Z"));
        assertThat(clock.instant()).isEqualTo(Instant.parse("2031-05-01T10:00:00Z"));
        assertThat(clock.millis()).isEqualTo(clock.instant().toEpochMilli());

        clock.advance(Duration.ofMinutes(5));

        assertThat(clock.instant()).isEqualTo(Instant.parse("2031-05-01T10:05:00Z"));
        assertThat(new ManualClock().instant()).isEqualTo(ManualClock.DEFAULT_START);
    }

    @Test
    void advance_refusesGoingBack_andNull() {
        ManualClock clock = new ManualClock();
        assertThatThrownBy(() -> clock.advance(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a manual clock cannot go back: PT-0.001S");
        assertThatThrownBy(() -> clock.advance(null)).isInstanceOf(NullPointerException.class);
        assertThat(clock.instant()).isEqualTo(ManualClock.DEFAULT_START);
    }

    @Test
    void aQueueNobodyClosed_canBeCollected_thoughItsClockLives() throws Exception {
        ManualClock clock = new ManualClock();
        byte[] payload = new byte[1 << 20];
        WeakReference<byte[]> stored = new WeakReference<>(payload);
        InMemoryDelayQueue.<byte[]>builder("forgotten").clock(clock).build().send(payload);
        payload = null;

        for (int i = 0; i < 100 && stored.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }

        assertThat(stored.get())
                .as("what the queue stored, held only through its clock's listeners")
                .isNull();
        clock.advance(Duration.ofSeconds(1)); // its listener is gone quietly
    }

    @Test
    void withZone_sharesTheTime() {
        ManualClock clock = new ManualClock();
        ManualClock paris = clock.withZone(ZoneId.of("Europe/Paris"));

        clock.advance(Duration.ofHours(1));

        assertThat(paris.getZone()).isEqualTo(ZoneId.of("Europe/Paris"));
        assertThat(paris.instant()).isEqualTo(clock.instant());
    }
}
