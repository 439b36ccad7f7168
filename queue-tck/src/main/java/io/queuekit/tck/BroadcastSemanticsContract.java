package io.queuekit.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.Broadcaster;
import io.queuekit.Semantics;
import org.junit.jupiter.api.Test;

/**
 * The contract of what a broadcaster says about itself: {@code semantics()} is constant and has no
 * delays; {@code name()} is the channel given.
 */
interface BroadcastSemanticsContract extends BroadcasterContract {

    @Test
    default void semantics_isConstant_andHasNoDelays() {
        Broadcaster<String> b = newBroadcaster();
        Semantics s = b.semantics();
        assertThat(s).isNotNull().isEqualTo(b.semantics());
        assertThat(s.transport()).isNotBlank();
        assertThat(s.delays()).as("a broadcaster cannot schedule").isFalse();
    }

    @Test
    default void name_isTheChannelGiven() {
        String channel = uniqueName();
        Broadcaster<String> b = newBroadcaster(channel);
        assertThat(b.name()).isEqualTo(channel);
    }
}
