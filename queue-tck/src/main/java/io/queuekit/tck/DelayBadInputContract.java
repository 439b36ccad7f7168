package io.queuekit.tck;

import static io.queuekit.tck.BadInputCatalogue.assertRefusedLeavingAllAsItWas;
import static io.queuekit.tck.Tck.next;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.queuekit.DelayQueue;
import io.queuekit.MessageId;
import io.queuekit.Semantics;
import io.queuekit.tck.BadInputCatalogue.QueueCase;
import io.queuekit.tck.BadInputCatalogue.SeededQueue;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract for bad input to a delay queue: every call of
 * {@link BadInputCatalogue#delayQueueCases()} is refused clearly and leaves the stored messages as
 * they were; instants long past are accepted and mean now.
 */
interface DelayBadInputContract extends DelayQueueContract {

    @Test
    default void schedule_refusesNegativeDelays_andDelaysBeyondTheMaximum_storingNothing() {
        DelayQueue<String> q = newDelayQueue();
        Duration tooLong = DelayQueue.MAX_DELAY.plusDays(1);
        Instant tooFar = time().now().plus(tooLong);

        assertThatThrownBy(() -> q.schedule("x", Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> q.schedule("x", tooLong)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> q.scheduleAt("x", tooFar)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> q.schedule(MessageId.of("a"), "x", Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> q.scheduleAt(MessageId.of("b"), "x", tooFar))
                .isInstanceOf(IllegalArgumentException.class);

        assertThat(q.stats().total()).isZero();
        assertThat(q.schedule(MessageId.of("a"), "x", Duration.ZERO))
                .as("id a was not taken")
                .isTrue();
    }

    @Test
    default void schedule_refusesNulls_storingNothing() {
        DelayQueue<String> q = newDelayQueue();
        MessageId id = MessageId.of("n");
        Instant at = time().now();

        assertThatThrownBy(() -> q.schedule(null, Duration.ZERO)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> q.schedule("x", null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> q.scheduleAt(null, at)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> q.scheduleAt("x", null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> q.schedule(null, "x", Duration.ZERO)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> q.schedule(id, null, Duration.ZERO)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> q.scheduleAt(id, "x", null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> q.cancel(null)).isInstanceOf(NullPointerException.class);

        assertThat(q.stats().total()).isZero();
    }

    // ---- one MAX_DELAY rule on every transport, for delays and due times alike

    @Test
    default void schedule_beyondTheMaximum_isRefusedNamingTheLimit_andADueTimeWithinItIsAccepted() {
        DelayQueue<String> q = newDelayQueue();
        Duration tooLong = DelayQueue.MAX_DELAY.plusMillis(1);

        assertThatThrownBy(() -> q.schedule("x", tooLong))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("DelayQueue.MAX_DELAY")
                .hasMessageContaining(tooLong.toString());
        assertThatThrownBy(() -> q.scheduleAt("x", Instant.MAX))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("DelayQueue.MAX_DELAY")
                .hasMessageContaining(Instant.MAX.toString());
        assertThat(q.stats().total()).isZero();

        q.scheduleAt("far", time().now().plus(DelayQueue.MAX_DELAY).minusSeconds(60));
        assertThat(q.stats().delayed()).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.queuekit.tck.BadInputCatalogue#delayQueueCases")
    default void delayQueueCall_isRefusedClearly_andChangesNothing(QueueCase c) throws Exception {
        SeededQueue f = seededQueue();
        assumeTrue(
                c.appliesTo().test(f.queue().semantics()),
                c.name() + ": not for " + f.queue().semantics());

        assertRefusedLeavingAllAsItWas(c, f, f.queue()::stats);
    }

    @Test
    default void instantsFarInThePast_meanNow() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        q.scheduleAt("min", Instant.MIN);
        q.scheduleAt("1969", Instant.EPOCH.minusSeconds(1));
        q.scheduleAt("yesterday", time().now().minus(Duration.ofDays(1)));
        assertThat(q.scheduleAt(MessageId.of("dup"), "min-id", Instant.MIN)).isTrue();

        List<String> got = List.of(next(q).payload(), next(q).payload(), next(q).payload(), next(q).payload());

        if (q.semantics().ordering() == Semantics.Ordering.DUE_TIME) {
            assertThat(got).as("all due now, so in send order").containsExactly("min", "1969", "yesterday", "min-id");
        } else {
            assertThat(got).as("all due now").containsExactlyInAnyOrder("min", "1969", "yesterday", "min-id");
        }
        assertThat(q.poll()).isNull();
        assertThat(q.schedule("max", DelayQueue.MAX_DELAY)).isNotNull();
    }
}
