package io.queuekit.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Reading a script's cost per call back from a script-cost result, as the benchmark prints it. */
class TargetsTest {
    @Test
    void opMicros_isTheNamedOperationsCostPerCall_andEmptyForAnother() {
        String commands = "claim-nothing 10.5 us/call, claim 14.2 us/call, ack 9.8 us/call";
        assertThat(Targets.opMicros(commands, "claim")).hasValue(14.2);
        assertThat(Targets.opMicros(commands, "ack")).hasValue(9.8);
        assertThat(Targets.opMicros(commands, "send")).isEmpty();
    }
}
