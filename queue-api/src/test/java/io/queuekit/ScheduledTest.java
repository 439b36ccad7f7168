package io.queuekit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A payload with its due time: refuses nulls, naming which, and compares by value. */
class ScheduledTest {
    private static final Instant DUE = Instant.parse("2026-12-01T09:00:00Z");

    @Test
    void at_holdsThePayloadAndTheDueTime_comparingByValue() {
        Scheduled<String> s = Scheduled.at("remind", DUE);

        assertThat(s.payload()).isEqualTo("remind");
        assertThat(s.dueAt()).isEqualTo(DUE);
        assertThat(s).isEqualTo(new Scheduled<>("remind", DUE)).hasSameHashCodeAs(new Scheduled<>("remind", DUE));
    }

    @Test
    void nulls_areRefused_namingTheField() {
        assertThatNullPointerException()
                .isThrownBy(() -> Scheduled.at(null, DUE))
                .withMessage("payload");
        assertThatNullPointerException()
                .isThrownBy(() -> Scheduled.at("remind", null))
                .withMessage("dueAt");
        assertThatNullPointerException()
                .isThrownBy(() -> new Scheduled<>(null, DUE))
                .withMessage("payload");
        assertThatNullPointerException()
                .isThrownBy(() -> new Scheduled<>("remind", null))
                .withMessage("dueAt");
    }

    @Test
    void anInstantLongPast_isAccepted_forTheQueueToReadAsNow() {
        assertThat(Scheduled.at("overdue", Instant.MIN).dueAt()).isEqualTo(Instant.MIN);
    }
}
