package io.queuekit.testing;

import io.queuekit.testing.RedisServer.Source;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.IntSupplier;

/** A builder's settings, frozen at start, with the source and URL already looked up. */
record Settings(
        Source source,
        String forcedBy,
        Url url,
        boolean appendOnly,
        List<Directive> config,
        OptionalInt port,
        Duration startupTimeout,
        boolean requireProcessControl,
        IntSupplier portChooser,
        Platform platform,
        boolean sentinel) {

    /** What the resolver reads from the machine; injectable so tests can take redis-server off PATH. */
    record Platform(String pathVariable, String osName, String osArch) {
        static Platform current() {
            return new Platform(System.getenv("PATH"), System.getProperty("os.name"), System.getProperty("os.arch"));
        }
    }

    /** An external server's URL and where it was found, for messages. */
    record Url(URI uri, String origin) {}

    /** What only a server started here can honour, named for messages; empty if nothing. */
    String localOnlyRequests() {
        StringBuilder sb = new StringBuilder();
        if (port.isPresent()) {
            sb.append("port(").append(port.getAsInt()).append(") ");
        }
        if (appendOnly) {
            sb.append("appendOnly(true) ");
        }
        if (!config.isEmpty()) {
            sb.append("config(...) ");
        }
        if (requireProcessControl) {
            sb.append("requireProcessControl() ");
        }
        if (sentinel) {
            sb.append("sentinel mode ");
        }
        return sb.toString().trim();
    }

    /** The last {@code requirepass} directive, unquoted, or null. */
    String password() {
        String password = null;
        for (Directive d : config) {
            if (d.key().equals("requirepass")) {
                password = Directive.unquote(d.value());
            }
        }
        return password == null || password.isEmpty() ? null : password;
    }
}
