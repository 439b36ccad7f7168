package io.queuekit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HeadersTest {

    @Test
    void keepsNamesAndValuesExactly_inTheirOrder() {
        Map<String, String> given = new LinkedHashMap<>();
        given.put("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        given.put("Tenant", "ünïcode ✓ 🚀");
        given.put("empty", "");
        Headers h = Headers.of(given);

        assertThat(h.asMap()).containsExactlyEntriesOf(given);
        assertThat(List.copyOf(h.asMap().keySet())).containsExactly("traceparent", "Tenant", "empty");
        assertThat(h.get("tenant")).as("names compare exactly").isNull();
        assertThat(h.get("Tenant")).isEqualTo("ünïcode ✓ 🚀");
    }

    @Test
    void with_replacesInPlace_andAddsLast() {
        Headers h = Headers.of("a", "1").with("b", "2").with("a", "3");

        assertThat(h.asMap()).containsExactly(Map.entry("a", "3"), Map.entry("b", "2"));
        assertThat(Headers.of("a", "1")
                        .withAll(Headers.of("a", "9").with("c", "3"))
                        .asMap())
                .containsExactly(Map.entry("a", "9"), Map.entry("c", "3"));
    }

    @Test
    void isImmutable_andEqualByMap() {
        Map<String, String> given = new HashMap<>(Map.of("a", "1"));
        Headers h = Headers.of(given);
        given.put("b", "2");

        assertThat(h.size()).isEqualTo(1);
        assertThatThrownBy(() -> h.asMap().put("c", "3")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(h).isEqualTo(Headers.of("a", "1")).hasSameHashCodeAs(Headers.of("a", "1"));
        assertThat(Headers.of(Map.of())).isSameAs(Headers.empty());
    }

    @Test
    void refusesNulls_namingWhat() {
        assertThatThrownBy(() -> Headers.of(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Headers.of(null, "v"))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("header name");
        assertThatThrownBy(() -> Headers.of("k", null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("value of header k");
    }

    @Test
    void refusesNamesThatAreNotTokens() {
        for (String bad : List.of("", "with space", "colon:", "new\nline", "ü", "a=b", "x".repeat(129))) {
            assertThatThrownBy(() -> Headers.of(bad, "v"))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("header name");
        }
        assertThat(Headers.of("X-B3-TraceId!#$%&'*+-.^_`|~", "v").size()).isEqualTo(1);
    }

    @Test
    void refusesValuesUtf8CannotCarry() {
        assertThatThrownBy(() -> Headers.of("k", "a\uD800b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unpaired surrogate at index 1");
        assertThatThrownBy(() -> Headers.of("k", "\uDC00"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unpaired surrogate");
    }

    @Test
    void refusesMoreThanTheLimits() {
        Map<String, String> many = new LinkedHashMap<>();
        for (int i = 0; i <= Headers.MAX_COUNT; i++) {
            many.put("h" + i, "v");
        }
        assertThatThrownBy(() -> Headers.of(many))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most " + Headers.MAX_COUNT + " headers");

        String big = "é".repeat(Headers.MAX_BYTES / 2); // 2 bytes each in UTF-8
        assertThatThrownBy(() -> Headers.of("k", big))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("over the limit of " + Headers.MAX_BYTES + " bytes");
        Headers fits = Headers.of("k", "é".repeat((Headers.MAX_BYTES - 1) / 2));
        assertThat(fits.bytes()).isLessThanOrEqualTo(Headers.MAX_BYTES);
        assertThatThrownBy(() -> fits.with("more", "xx")).isInstanceOf(IllegalArgumentException.class);
    }
}
