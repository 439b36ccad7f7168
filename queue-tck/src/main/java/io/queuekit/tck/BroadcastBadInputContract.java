package io.queuekit.tck;

import static io.queuekit.tck.BadInputCatalogue.assertRefused;
import static io.queuekit.tck.Tck.await;
import static io.queuekit.tck.Tck.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.queuekit.Broadcaster;
import io.queuekit.tck.BadChannelInputCatalogue.Channel;
import io.queuekit.tck.BadChannelInputCatalogue.ChannelCase;
import io.queuekit.tck.Tck.Recorder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract for bad input to a broadcaster: every call of {@link BadChannelInputCatalogue#channelCases()}
 * is refused clearly and publishes nothing.
 */
interface BroadcastBadInputContract extends BroadcasterContract {

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

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.queuekit.tck.BadChannelInputCatalogue#channelCases")
    default void broadcasterCall_isRefusedClearly_andPublishesNothing(ChannelCase c) {
        String channel = uniqueName();
        Channel ch = new Channel(newBroadcaster(channel), newBroadcaster(channel));

        assertRefused(c.name(), catchThrowable(() -> c.call().run(ch)), c.expected(), c.mentions());

        assertThat(ch.heardBeforeMarker()).as("published by a refused call").isEmpty();
    }
}
