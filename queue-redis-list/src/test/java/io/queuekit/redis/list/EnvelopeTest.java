package io.queuekit.redis.list;

import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.MessageId;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EnvelopeTest {

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void encode_thenParse_givesBackEveryPart_andPayloadsMayHoldSpaces() {
        byte[] element = Envelope.encode(utf8("k2j.1f"), 3, 1_733_000_000_123L, utf8("a b  c"));

        assertThat(new String(element, StandardCharsets.UTF_8)).isEqualTo("k2j.1f 3 1733000000123 a b  c");
        Envelope e = Envelope.parse(element);
        assertThat(e.id).isEqualTo(MessageId.of("k2j.1f"));
        assertThat(e.attempt).isEqualTo(3);
        assertThat(e.enqueuedMillis).isEqualTo(1_733_000_000_123L);
        assertThat(e.payload()).isEqualTo(utf8("a b  c"));
        assertThat(e.element()).isSameAs(element);
    }

    @Test
    void emptyPayload_roundTrips() {
        Envelope e = Envelope.parse(Envelope.encode(utf8("x"), 1, 0, new byte[0]));
        assertThat(e.payload()).isEmpty();
        assertThat(e.body()).isEqualTo(utf8("0:"));
    }

    @Test
    void next_raisesTheAttempt_andKeepsIdTimeAndPayload() {
        Envelope e = Envelope.parse(utf8("id-1 9 42 payload"));
        assertThat(new String(e.next(), StandardCharsets.UTF_8)).isEqualTo("id-1 10 42 payload");
        assertThat(new String(e.body(), StandardCharsets.UTF_8)).isEqualTo("42:payload");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "hello",
                "{\"json\":1}",
                " 1 2 p",
                "id 1 2",
                "id x 2 p",
                "id 1 y p",
                "id 0 2 p",
                "id 1 1234567890123456789 p",
                "id -1 2 p"
            })
    void parse_refusesWhatIsNotAnEnvelope(String element) {
        assertThat(Envelope.parse(utf8(element))).isNull();
    }
}
