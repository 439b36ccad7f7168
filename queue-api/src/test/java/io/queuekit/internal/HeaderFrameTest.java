package io.queuekit.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.Headers;
import io.queuekit.SerializationException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HeaderFrameTest {

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void withoutHeaders_aPayloadIsStoredAsItIs() {
        byte[] payload = bytes("{\"order\":1}");

        assertThat(HeaderFrame.frame(Headers.empty(), payload)).isSameAs(payload);
        HeaderFrame.Read read = HeaderFrame.read(payload);
        assertThat(read.headers()).isEqualTo(Headers.empty());
        assertThat(read.payload()).isEqualTo(payload);
    }

    @Test
    void headersAndPayloadComeBackByteForByte() {
        Headers h = Headers.of("traceparent", "00-abc-def-01")
                .with("note", "a:b 12: ünï\n\0")
                .with("e", "");
        byte[] payload = {0, 'q', 'k', 'h', ':', 5, -1};

        HeaderFrame.Read read = HeaderFrame.read(HeaderFrame.frame(h, payload));

        assertThat(read.headers()).isEqualTo(h);
        assertThat(read.headers().asMap().keySet()).containsExactly("traceparent", "note", "e");
        assertThat(read.payload()).isEqualTo(payload);
    }

    @Test
    void aPayloadThatLooksLikeAFrame_isFramed_soItReadsBackAsItself() {
        byte[] payload = {0, 'q', 'k', 'h', '3', ':', 'x'};

        byte[] stored = HeaderFrame.frame(Headers.empty(), payload);

        assertThat(stored).isNotEqualTo(payload);
        HeaderFrame.Read read = HeaderFrame.read(stored);
        assertThat(read.headers().isEmpty()).isTrue();
        assertThat(read.payload()).isEqualTo(payload);
    }

    @Test
    void anEmptyOrShortPayload_isStoredAsItIs() {
        assertThat(HeaderFrame.read(new byte[0]).payload()).isEmpty();
        assertThat(HeaderFrame.read(new byte[] {0, 'q'}).payload()).containsExactly(0, 'q');
    }

    @Test
    void aMalformedFrame_isASerializationException_andListingsSeeNoHeaders() {
        byte[] magic = {0, 'q', 'k', 'h'};
        for (String rest : new String[] {"", "x:", "99:", "4:1:a", "6:9:abc", "12345678901:"}) {
            byte[] bad = new byte[magic.length + rest.length()];
            System.arraycopy(magic, 0, bad, 0, magic.length);
            System.arraycopy(bytes(rest), 0, bad, magic.length, rest.length());
            assertThatThrownBy(() -> HeaderFrame.read(bad))
                    .as(rest)
                    .isInstanceOf(SerializationException.class)
                    .hasMessageContaining("stored headers are not well formed");
            assertThat(HeaderFrame.headersOrEmpty(bad)).isEqualTo(Headers.empty());
        }
        byte[] notUtf8 = {0, 'q', 'k', 'h', '7', ':', '1', ':', 'a', '2', ':', (byte) 0xC3, '('};
        assertThatThrownBy(() -> HeaderFrame.read(notUtf8))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining("not UTF-8");
    }
}
