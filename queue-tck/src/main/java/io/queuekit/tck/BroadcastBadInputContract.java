package io.queuekit.tck;

import static io.queuekit.tck.Tck.await;
import static io.queuekit.tck.Tck.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.Broadcaster;
import io.queuekit.tck.Tck.Recorder;
import org.junit.jupiter.api.Test;

/**
 * The contract for bad input to a broadcaster: nulls are refused.
 */
public interface BroadcastBadInputContract extends BroadcasterContract {

    @Test
    default void publish_null_throwsNullPointerException() {
        Broadcaster<String> b = newBroadcaster();
        Recorder r = record(b);
        assertThatThrownBy(() -> b.publish(null)).isInstanceOf(NullPointerException.class);
        b.publish("after");
        await().untilAsserted(() -> assertThat(r.received).containsExactly("after"));
    }

    @Test
    default void subscribe_null_throwsNullPointerException() {
        Broadcaster<String> b = newBroadcaster();
        assertThatThrownBy(() -> b.subscribe(null)).isInstanceOf(NullPointerException.class);
        assertThat(b.publish("x")).isZero();
    }
}
