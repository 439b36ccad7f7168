package io.queuekit.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The builder refuses bad settings when they are set, naming the value. */
@Timeout(10)
class BuilderValidationTest {

    @Test
    void port_outOfRange_isRejected() {
        assertThatThrownBy(() -> RedisServer.builder().port(0)).hasMessage("port must be in 1..65535: 0");
        assertThatThrownBy(() -> RedisServer.builder().port(65536)).hasMessage("port must be in 1..65535: 65536");
    }

    @Test
    void startupTimeout_notPositive_isRejected() {
        assertThatThrownBy(() -> RedisServer.builder().startupTimeout(Duration.ZERO))
                .hasMessage("startup timeout must be positive: PT0S");
        assertThatThrownBy(() -> RedisServer.builder().startupTimeout(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void config_managedKeys_areRejected() {
        assertThatThrownBy(() -> RedisServer.builder().config("port", "1234")).hasMessageContaining("use port(int)");
        assertThatThrownBy(() -> RedisServer.builder().config("dir", "/tmp"))
                .hasMessageContaining("managed by RedisServer");
        assertThatThrownBy(() -> RedisServer.builder().config("DAEMONIZE", "yes"))
                .hasMessageContaining("managed");
    }

    @Test
    void config_malformed_isRejected() {
        assertThatThrownBy(() -> RedisServer.builder().config("two words", "x")).hasMessageContaining("directive name");
        assertThatThrownBy(() -> RedisServer.builder().config("save", "60 1\nrequirepass x"))
                .hasMessageContaining("must be one line");
    }

    @Test
    void url_withOtherScheme_isRejected() {
        assertThatThrownBy(() -> RedisServer.builder().url("http://localhost:6379"))
                .hasMessageContaining("redis:// or rediss://");
    }

    @Test
    void uris_fillInThePortAndRedactPasswords() {
        assertThat(Uris.normalize("localhost").toString()).isEqualTo("redis://localhost:6379");
        assertThat(Uris.normalize("rediss://u:p@host/2").toString()).isEqualTo("rediss://u:p@host:6379/2");
        assertThat(Uris.redact("redis://u:p@host:1/0")).isEqualTo("redis://***@host:1/0");
        assertThat(Uris.redact("redis://host:1")).isEqualTo("redis://host:1");
    }

    @Test
    void directives_renderValuesVerbatimAndEmptyAsQuotes() {
        assertThat(new Directive("save", "").line()).isEqualTo("save \"\"");
        assertThat(new Directive("save", "900 1 300 10").line()).isEqualTo("save 900 1 300 10");
        assertThat(Directive.quote("/tmp/a \"b\"")).isEqualTo("\"/tmp/a \\\"b\\\"\"");
    }
}
