package io.queuekit.testing;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.IntSupplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Redis server for tests and demos: either one this class starts and owns, or an external
 * one named by a URL.
 *
 * <pre>{@code
 * try (RedisServer redis = RedisServer.builder().appendOnly(true).requireProcessControl().start();
 *      RedisClient client = RedisClients.create(redis)) {
 *     client.set("k", "v");
 *     redis.kill();      // SIGKILL, like a crash
 *     redis.restart();   // same port, same data directory: the AOF brings "k" back
 * }
 * }</pre>
 * A test class that only needs some Redis takes one by parameter with {@link RedisServerTest}.
 *
 * <p>{@link Source#AUTO} (the default) uses the first source that works: {@link Source#URL} (from
 * {@link Builder#url(String)}, the system property {@value #URL_PROPERTY} or the environment variable
 * {@value #URL_ENV}), {@link Source#PATH}, {@link Source#DOCKER}, {@link Source#EMBEDDED}; force one with
 * {@link Builder#source(Source)} or the system property {@value #SOURCE_PROPERTY}. Easy to get wrong: a
 * URL that is set but does not answer fails {@link Builder#start()} rather than starting another server,
 * yet AUTO passes over the URL when the builder asks for what only a server started here can honour
 * ({@link Builder#port(int)}, {@link Builder#appendOnly(boolean)}, {@link Builder#config(String, String)},
 * {@link Builder#requireProcessControl()}); and {@link #kill()}, {@link #stop()} and {@link #restart()}
 * work only on servers started here (PATH, EMBEDDED). Thread-safe. {@link #close()} kills a server started
 * here and deletes its directory, leaves an external one alone, and is idempotent. How servers are
 * started: {@code docs/testing.md}.
 */
public final class RedisServer implements AutoCloseable {

    /** System property naming an external Redis, e.g. {@code redis://127.0.0.1:6379}. */
    public static final String URL_PROPERTY = "queuekit.redis.url";
    /** Environment variable naming an external Redis; the system property {@value #URL_PROPERTY} wins over it. */
    public static final String URL_ENV = "REDIS_URL";
    /** System property forcing a source: {@code auto}, {@code url}, {@code path}, {@code docker} or {@code embedded}. */
    public static final String SOURCE_PROPERTY = "queuekit.redis.source";
    /** The image the DOCKER source runs. */
    public static final String DOCKER_IMAGE = "redis:7-alpine";

    private static final Logger LOG = LoggerFactory.getLogger(RedisServer.class);
    private static final Object SHARED_LOCK = new Object();
    private static RedisServer sharedServer;

    /** Where a server comes from; see the class comment for the order AUTO tries them in. */
    public enum Source {
        /** The first of URL, PATH, DOCKER, EMBEDDED that works. */
        AUTO,
        /** An external server named by a URL; queuekit neither starts nor stops it. */
        URL,
        /** {@code redis-server} found on {@code PATH}, run as a child process. */
        PATH,
        /** A {@value RedisServer#DOCKER_IMAGE} container started through Testcontainers. */
        DOCKER,
        /** The Redis 6.2 binary shipped in the embedded-redis jar, run as a child process. */
        EMBEDDED
    }

    private final Backend backend;
    private final Source source;
    private final String version;
    private final boolean shared;

    private RedisServer(Backend backend, Source source, boolean shared) {
        this.backend = backend;
        this.source = source;
        this.version = backend.version();
        this.shared = shared;
    }

    /** A builder with the defaults: AUTO source, free port, no AOF, 20 s startup timeout. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * One server per JVM from the AUTO source with default settings, started on first call and closed by
     * a shutdown hook; for tests that only need some Redis.
     *
     * <p>Every test class of the JVM shares it, possibly concurrently, and it may be an external server:
     * use unique keys and queue names (for example with a random suffix), never {@code FLUSHALL}, and do
     * not kill, stop or restart it. {@link #close()} on it does nothing.
     *
     * @throws RedisServerException if no source works; the next call tries again
     */
    public static RedisServer shared() {
        synchronized (SHARED_LOCK) {
            if (sharedServer == null) {
                RedisServer server = new Builder().start(true);
                Runtime.getRuntime()
                        .addShutdownHook(new Thread(server.backend::close, "queuekit-redis-shared-shutdown"));
                sharedServer = server;
            }
            return sharedServer;
        }
    }

    /** The host to connect to: {@code 127.0.0.1} for servers started here. */
    public String host() {
        return backend.host();
    }

    /** The TCP port; a restart keeps it. */
    public int port() {
        return backend.port();
    }

    /**
     * A URI for clients such as {@code RedisClient.create(uri)}: {@code redis://127.0.0.1:PORT} for
     * servers started here (with {@code :password@} when {@code requirepass} was configured); for the URL
     * source, the configured URL with the port made explicit, credentials and database included.
     */
    public String uri() {
        return backend.uri();
    }

    /** The source actually used; never {@link Source#AUTO}. */
    public Source source() {
        return source;
    }

    /** The server's version from {@code INFO server}, e.g. {@code 7.0.15}, or {@code unknown} if it would not say. */
    public String version() {
        return version;
    }

    /** Whether {@link #kill()}, {@link #stop()} and {@link #restart()} work: true for PATH and EMBEDDED. */
    public boolean supportsProcessControl() {
        return backend.supportsProcessControl();
    }

    /**
     * The server's working and data directory (AOF, RDB, logs, {@code redis.conf}) for servers started as
     * a child process; empty for URL and DOCKER. Deleted by {@link #close()}.
     */
    public Optional<Path> dataDirectory() {
        return backend.dataDirectory();
    }

    /**
     * Kills the server process with SIGKILL, as a crash would, and waits until it has exited. Nothing is
     * flushed; only what the AOF already holds survives a {@link #restart()}. Does nothing if the process
     * is not running.
     *
     * @throws UnsupportedOperationException for the URL and DOCKER sources
     * @throws IllegalStateException after {@link #close()}
     */
    public void kill() {
        backend.kill();
    }

    /**
     * Stops the server gracefully (SIGTERM: the server finishes the current command, flushes the AOF and
     * exits) and waits until it has exited, falling back to SIGKILL after the startup timeout. Does nothing
     * if the process is not running.
     *
     * @throws UnsupportedOperationException for the URL and DOCKER sources
     * @throws IllegalStateException after {@link #close()}
     */
    public void stop() {
        backend.stop();
    }

    /**
     * Starts the server again on the same port with the same data directory and configuration, stopping it
     * gracefully first if it is running, and returns once it answers PING and has finished loading its
     * dataset (Redis answers {@code LOADING} while it replays the AOF). Clients reconnect to the same
     * {@link #uri()}.
     *
     * @throws UnsupportedOperationException for the URL and DOCKER sources
     * @throws IllegalStateException after {@link #close()}
     * @throws RedisServerException if it does not come back within the startup timeout, or another
     *     process took the port in the meantime
     */
    public void restart() {
        backend.restart();
    }

    /** Whether the server is up: the process is alive, or for the URL source, it answers PING. */
    public boolean isRunning() {
        return backend.isRunning();
    }

    /**
     * Kills a server started here and deletes its data directory, or does nothing for an external one.
     * Idempotent; does nothing on the {@link #shared()} server.
     */
    @Override
    public void close() {
        if (!shared) {
            backend.close();
        }
    }

    /** For tests in this package that look at the process itself. */
    Backend backend() {
        return backend;
    }

    @Override
    public String toString() {
        return "RedisServer[" + source + " " + version + " at " + Uris.redact(backend.uri()) + "]";
    }

    /**
     * Configures and starts a {@link RedisServer}. Setters validate eagerly and throw
     * {@link IllegalArgumentException} naming the bad value; contradictions between settings and a forced
     * source are reported by {@link #start()}. A builder may start several servers.
     */
    public static final class Builder {

        private static final Pattern DIRECTIVE_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_.-]*");
        private static final Set<String> MANAGED = Set.of("port", "dir", "daemonize", "include");

        private Source source;
        private String url;
        private boolean appendOnly;
        private final List<Directive> config = new ArrayList<>();
        private Integer port;
        private Duration startupTimeout = Duration.ofSeconds(20);
        private boolean requireProcessControl;
        private IntSupplier portChooser = FreePorts::next;
        private Settings.Platform platform;
        private boolean sentinel;

        private Builder() {}

        /**
         * Forces a source, overriding the system property {@value RedisServer#SOURCE_PROPERTY}; AUTO restores
         * the search order.
         */
        public Builder source(Source source) {
            this.source = Objects.requireNonNull(source, "source");
            return this;
        }

        /**
         * The external server for the URL source, e.g. {@code redis://:secret@10.0.0.5:6380/2} or
         * {@code rediss://host:6380}; wins over {@value RedisServer#URL_PROPERTY} and
         * {@value RedisServer#URL_ENV}. A bare {@code host:port} is read as {@code redis://host:port}.
         */
        public Builder url(String url) {
            Objects.requireNonNull(url, "url");
            this.url = Uris.normalize(url).toString();
            return this;
        }

        /**
         * Turns on the append-only file with {@code appendfsync always}, so every acknowledged write survives
         * {@link RedisServer#kill()}; for crash tests. Slower than the default (no persistence).
         */
        public Builder appendOnly(boolean appendOnly) {
            this.appendOnly = appendOnly;
            return this;
        }

        /**
         * Adds a {@code redis.conf} directive, written as the line {@code key value} after the ones this
         * class manages, so it wins over them (a later line replaces an earlier one for single-valued
         * directives). Examples: {@code ("maxmemory-policy", "noeviction")}, {@code ("requirepass", "s3cret")},
         * {@code ("save", "60 1")}. The value is written verbatim, so a multi-word value gives several
         * arguments and Redis quoting rules apply; an empty value is written as {@code ""}. A
         * {@code requirepass} is used for the readiness check and put into {@link RedisServer#uri()}.
         * Repeating a key adds another line. Applies to servers started here (PATH, EMBEDDED, DOCKER).
         *
         * @throws IllegalArgumentException for {@code port} (use {@link #port(int)}), {@code dir},
         *     {@code daemonize} and {@code include}, which this class manages, for a malformed key, or for a
         *     value containing a line break
         */
        public Builder config(String key, String value) {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(value, "value");
            if (!DIRECTIVE_NAME.matcher(key).matches()) {
                throw new IllegalArgumentException("config key must be a redis.conf directive name: '" + key + "'");
            }
            String lower = key.toLowerCase(Locale.ROOT);
            if (lower.equals("port")) {
                throw new IllegalArgumentException("use port(int) instead of config(\"port\", ...)");
            }
            if (MANAGED.contains(lower)) {
                throw new IllegalArgumentException(
                        "config key '" + key + "' is managed by RedisServer and cannot be set");
            }
            if (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0) {
                throw new IllegalArgumentException("config value for '" + key + "' must be one line: '" + value + "'");
            }
            config.add(new Directive(lower, value));
            return this;
        }

        /**
         * Listens on this port instead of a free one. A server started here gets no retry if the port is
         * taken. Not available for the URL and DOCKER sources; AUTO skips them.
         *
         * @throws IllegalArgumentException outside 1..65535
         */
        public Builder port(int port) {
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("port must be in 1..65535: " + port);
            }
            this.port = port;
            return this;
        }

        /**
         * How long {@link #start()} and {@link RedisServer#restart()} wait for the server to answer PING
         * (and to finish loading); also bounds a graceful {@link RedisServer#stop()}. Default 20 seconds.
         *
         * @throws IllegalArgumentException unless positive
         */
        public Builder startupTimeout(Duration startupTimeout) {
            Objects.requireNonNull(startupTimeout, "startupTimeout");
            if (startupTimeout.isZero() || startupTimeout.isNegative()) {
                throw new IllegalArgumentException("startup timeout must be positive: " + startupTimeout);
            }
            this.startupTimeout = startupTimeout;
            return this;
        }

        /**
         * Requires a server whose process this JVM controls (PATH or EMBEDDED), for tests that kill or
         * restart it: AUTO then skips URL and DOCKER, and forcing either fails.
         */
        public Builder requireProcessControl() {
            this.requireProcessControl = true;
            return this;
        }

        /** Replaces the free-port chooser; tests use it to provoke port conflicts. */
        Builder portChooser(IntSupplier portChooser) {
            this.portChooser = Objects.requireNonNull(portChooser, "portChooser");
            return this;
        }

        /** Replaces what is read from the machine (PATH, os.name, os.arch); tests use it to hide redis-server. */
        Builder platform(Settings.Platform platform) {
            this.platform = Objects.requireNonNull(platform, "platform");
            return this;
        }

        /**
         * Runs {@code redis-server redis.conf --sentinel}: a Sentinel rather than a data server, as
         * {@link RedisSentinelGroup} does (use it for a whole deployment; this is for a test that needs a Sentinel
         * configured otherwise, e.g. with TLS); its {@code sentinel ...} directives come from
         * {@link #config(String, String)}, e.g. {@code ("sentinel", "monitor orders 127.0.0.1 7001 1")}. A Sentinel
         * rewrites its config file with what it learns (its id, the other Sentinels, the current primary); the
         * file is written once per start and reused by {@link RedisServer#restart()}, so a restarted Sentinel
         * keeps all that. Only the PATH and EMBEDDED sources run one: AUTO passes over URL and DOCKER, and
         * forcing either fails with {@link RedisServerException}.
         */
        public Builder sentinel() {
            this.sentinel = true;
            return this;
        }

        /**
         * Finds or starts the server and returns once it answers PING.
         *
         * @throws RedisServerException if no source works (the message says what was tried and why each
         *     failed) or the forced source fails
         * @throws IllegalStateException if the forced source contradicts the settings, for example URL with
         *     {@link #requireProcessControl()}
         * @throws IllegalArgumentException if {@value RedisServer#SOURCE_PROPERTY} holds an unknown value
         */
        public RedisServer start() {
            return start(false);
        }

        private RedisServer start(boolean shared) {
            Source requested = source;
            String forcedBy = "builder().source(" + source + ")";
            if (requested == null) {
                requested = Sources.fromProperty();
                forcedBy = "-D" + SOURCE_PROPERTY + "=" + requested.name().toLowerCase(Locale.ROOT);
            }
            Settings settings = new Settings(
                    requested,
                    forcedBy,
                    Sources.url(url),
                    appendOnly,
                    List.copyOf(config),
                    port == null ? OptionalInt.empty() : OptionalInt.of(port),
                    startupTimeout,
                    requireProcessControl,
                    portChooser,
                    platform == null ? Settings.Platform.current() : platform,
                    sentinel);
            SourceResolver.Started started = SourceResolver.resolve(settings);
            RedisServer server;
            try {
                server = new RedisServer(started.backend(), started.source(), shared);
            } catch (RuntimeException e) {
                started.backend().close();
                throw e;
            }
            LOG.info(
                    "Redis {} at {} from source {}: {}",
                    server.version,
                    Uris.redact(server.uri()),
                    started.source(),
                    started.reason());
            return server;
        }
    }

    /** Where the URL and source settings come from when the builder does not name them. */
    static final class Sources {
        private Sources() {}

        static Source fromProperty() {
            String value = System.getProperty(SOURCE_PROPERTY);
            if (value == null || value.isBlank()) {
                return Source.AUTO;
            }
            try {
                return Source.valueOf(value.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        SOURCE_PROPERTY + " must be one of auto, url, path, docker, embedded: '" + value + "'", e);
            }
        }

        /** The URL and where it came from, or null when none is set. */
        static Settings.Url url(String fromBuilder) {
            if (fromBuilder != null) {
                return new Settings.Url(URI.create(fromBuilder), "builder().url(...)");
            }
            String property = System.getProperty(URL_PROPERTY);
            if (property != null && !property.isBlank()) {
                return new Settings.Url(Uris.normalize(property.trim()), "-D" + URL_PROPERTY);
            }
            String env = System.getenv(URL_ENV);
            if (env != null && !env.isBlank()) {
                return new Settings.Url(Uris.normalize(env.trim()), "environment variable " + URL_ENV);
            }
            return null;
        }
    }
}
