package io.queuekit.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Reading the script cost per call back from a result's commands, as the benchmark prints them. */
class TargetsTest {
    @Test
    void scriptMicros_isTheEvalshaCostPerCall_andEmptyWithoutScripts() {
        assertThat(Targets.scriptMicros("hdel 3.00 (1.4 us), evalsha 2.41 (79.0 us, 32.7 us/call), time 2.41 (0.4 us)"))
                .hasValue(32.7);
        assertThat(Targets.scriptMicros("lpush 1.00 (0.6 us), brpop 1.00 (2.1 us)")).isEmpty();
    }
}
