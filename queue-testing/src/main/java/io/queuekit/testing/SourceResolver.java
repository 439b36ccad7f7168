package io.queuekit.testing;

import io.queuekit.testing.RedisServer.Source;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Picks and starts a source: the forced one, or the AUTO order URL, PATH, DOCKER, EMBEDDED. Records why each
 * candidate was passed over so both the INFO line and the final failure can explain the choice.
 */
final class SourceResolver {

    private static final String HOW_TO_GET_REDIS = "To get a Redis: install redis-server (e.g. `apt-get install"
            + " redis-server`, `brew install redis`) so it is on PATH, or point " + RedisServer.URL_ENV
            + " (or -D" + RedisServer.URL_PROPERTY + ") at a running server, e.g. redis://127.0.0.1:6379,"
            + " or start a Docker engine.";

    private SourceResolver() {}

    /** A running backend, the source it came from and a one-line reason for the log. */
    record Started(Backend backend, Source source, String reason) {}

    static Started resolve(Settings s) {
        return s.source() == Source.AUTO ? auto(s) : forced(s);
    }

    private static Started forced(Settings s) {
        Source source = s.source();
        String why = "forced by " + s.forcedBy();
        if (s.sentinel() && (source == Source.URL || source == Source.DOCKER)) {
            throw new RedisServerException("a Sentinel runs only as a child process (source PATH or EMBEDDED);"
                    + " the " + source + " source (" + why + ") cannot start one");
        }
        if (s.requireProcessControl() && (source == Source.URL || source == Source.DOCKER)) {
            throw new IllegalStateException("requireProcessControl() was set but the " + source + " source (" + why
                    + ") cannot kill or restart the server; use PATH or EMBEDDED");
        }
        if (s.port().isPresent() && (source == Source.URL || source == Source.DOCKER)) {
            throw new IllegalStateException("port(" + s.port().getAsInt() + ") was set but the " + source + " source ("
                    + why + ") cannot choose the port");
        }
        try {
            switch (source) {
                case URL -> {
                    if (s.url() == null) {
                        throw new RedisServerException("the URL source is " + why + " but no URL is set: use"
                                + " builder().url(...), -D" + RedisServer.URL_PROPERTY + " or " + RedisServer.URL_ENV);
                    }
                    String ignored = s.localOnlyRequests();
                    if (!ignored.isEmpty()) {
                        throw new IllegalStateException("the URL source (" + why + ") uses an external server as it is"
                                + " and cannot honour " + ignored);
                    }
                    return new Started(
                            ExternalServer.connect(s.url(), s.startupTimeout()),
                            source,
                            why + ", URL from " + s.url().origin());
                }
                case PATH -> {
                    Optional<Path> binary =
                            PathLookup.find("redis-server", s.platform().pathVariable());
                    if (binary.isEmpty()) {
                        throw new RedisServerException(
                                "the PATH source is " + why + " but " + notOnPath(s) + ". " + HOW_TO_GET_REDIS);
                    }
                    return new Started(
                            LocalProcess.start(binary.get(), pathDescription(binary.get()), s),
                            source,
                            why + ", " + binary.get());
                }
                case DOCKER -> {
                    String unavailable = dockerUnavailable();
                    if (unavailable != null) {
                        throw new RedisServerException("the DOCKER source is " + why + " but " + unavailable);
                    }
                    return new Started(DockerServer.start(s), source, why + ", image " + RedisServer.DOCKER_IMAGE);
                }
                case EMBEDDED -> {
                    Path binary = EmbeddedBinary.path(s.platform());
                    return new Started(
                            LocalProcess.start(binary, embeddedDescription(s), s),
                            source,
                            why + ", " + embeddedDescription(s) + " extracted to " + binary);
                }
                default -> throw new IllegalStateException("unexpected source " + source);
            }
        } catch (StartFailure failure) {
            throw new RedisServerException(
                    "the " + source + " source (" + why + ") failed: " + failure.getMessage(), failure);
        }
    }

    private static Started auto(Settings s) {
        List<String> passedOver = new ArrayList<>();

        if (s.url() == null) {
            passedOver.add("url: neither " + RedisServer.URL_ENV + " nor -D" + RedisServer.URL_PROPERTY + " is set");
        } else if (!s.localOnlyRequests().isEmpty()) {
            passedOver.add("url: " + Uris.redact(s.url().uri().toString()) + " from "
                    + s.url().origin() + " ignored because the builder asked for " + s.localOnlyRequests());
        } else {
            // The user named this server; quietly starting another one would hide the misconfiguration.
            try {
                return new Started(
                        ExternalServer.connect(s.url(), s.startupTimeout()),
                        Source.URL,
                        "URL from " + s.url().origin());
            } catch (StartFailure failure) {
                throw new RedisServerException(
                        failure.getMessage() + ". Unset " + RedisServer.URL_ENV + " and -D" + RedisServer.URL_PROPERTY
                                + " to let queuekit start its own Redis.",
                        failure);
            }
        }

        Optional<Path> onPath = PathLookup.find("redis-server", s.platform().pathVariable());
        if (onPath.isEmpty()) {
            passedOver.add("path: " + notOnPath(s));
        } else {
            try {
                return new Started(
                        LocalProcess.start(onPath.get(), pathDescription(onPath.get()), s),
                        Source.PATH,
                        onPath.get() + " found on PATH; " + String.join("; ", passedOver));
            } catch (StartFailure failure) {
                rethrowIfConfig(failure);
                passedOver.add("path: " + failure.getMessage());
            }
        }

        if (s.requireProcessControl() || s.port().isPresent() || s.sentinel()) {
            passedOver.add("docker: skipped because the builder asked for "
                    + (s.requireProcessControl()
                            ? "requireProcessControl()"
                            : s.sentinel()
                                    ? "sentinel mode"
                                    : "port(" + s.port().getAsInt() + ")"));
        } else {
            String unavailable = dockerUnavailable();
            if (unavailable != null) {
                passedOver.add("docker: " + unavailable);
            } else {
                try {
                    return new Started(
                            DockerServer.start(s),
                            Source.DOCKER,
                            "Docker engine available; " + String.join("; ", passedOver));
                } catch (StartFailure failure) {
                    rethrowIfConfig(failure);
                    passedOver.add("docker: " + failure.getMessage());
                }
            }
        }

        try {
            Path binary = EmbeddedBinary.path(s.platform());
            return new Started(
                    LocalProcess.start(binary, embeddedDescription(s), s),
                    Source.EMBEDDED,
                    "fallback after " + String.join("; ", passedOver));
        } catch (StartFailure failure) {
            rethrowIfConfig(failure);
            passedOver.add("embedded: " + failure.getMessage());
        }

        StringBuilder message = new StringBuilder("No Redis server could be found or started. Tried, in order:");
        passedOver.forEach(line -> message.append("\n  - ").append(line.replace("\n", "\n      ")));
        message.append('\n').append(HOW_TO_GET_REDIS);
        throw new RedisServerException(message.toString());
    }

    private static void rethrowIfConfig(StartFailure failure) {
        if (failure.kind() == StartFailure.Kind.CONFIG_REJECTED) {
            throw new RedisServerException(
                    "Redis rejected the configuration given to RedisServer.Builder.config(...),"
                            + " so no other source was tried: " + failure.getMessage(),
                    failure);
        }
    }

    /** Null when Docker can be used, else why not. Touches DockerServer only once Testcontainers is present. */
    private static String dockerUnavailable() {
        try {
            Class.forName(DockerServer.TESTCONTAINERS_PROBE, false, SourceResolver.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return "Testcontainers (org.testcontainers:testcontainers) is not on the classpath";
        }
        return DockerServer.dockerAvailable() ? null : "no Docker engine is available to Testcontainers";
    }

    private static String notOnPath(Settings s) {
        return "no executable redis-server on PATH (" + s.platform().pathVariable() + ")";
    }

    private static String pathDescription(Path binary) {
        return "redis-server from PATH (" + binary + ")";
    }

    private static String embeddedDescription(Settings s) {
        try {
            String resource = EmbeddedBinary.resourceFor(
                    s.platform().osName(), s.platform().osArch());
            return "embedded-redis binary " + resource;
        } catch (StartFailure e) {
            return "embedded-redis binary";
        }
    }
}
