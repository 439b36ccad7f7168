package io.queuekit.testing;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

/** A server someone else runs, named by a URL: used as it is, never stopped or reconfigured. */
final class ExternalServer implements Backend.Uncontrolled {

    private final URI uri;
    private final String origin;

    private ExternalServer(URI uri, String origin) {
        this.uri = uri;
        this.origin = origin;
    }

    /** Waits up to {@code timeout} for the server to answer, since CI services may still be booting. */
    static ExternalServer connect(Settings.Url url, Duration timeout) throws StartFailure {
        ExternalServer server = new ExternalServer(url.uri(), url.origin());
        Readiness.Outcome outcome;
        try {
            outcome = Readiness.await(server::connect, () -> true, timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartFailure(StartFailure.Kind.FAILED, "interrupted while connecting to " + server, e);
        }
        if (!outcome.ready()) {
            throw new StartFailure(
                    StartFailure.Kind.FAILED,
                    server + " did not answer PING within " + timeout + " (last problem: " + outcome.problem() + ")");
        }
        return server;
    }

    @Override
    public String host() {
        return uri.getHost();
    }

    @Override
    public int port() {
        return uri.getPort();
    }

    @Override
    public String uri() {
        return uri.toString();
    }

    @Override
    public Jedis connect(int timeoutMillis) {
        return new Jedis(
                uri,
                JedisVersions.withoutProtocolNegotiation(DefaultJedisClientConfig.builder())
                        .connectionTimeoutMillis(timeoutMillis)
                        .socketTimeoutMillis(timeoutMillis)
                        .build());
    }

    @Override
    public String uncontrolled() {
        return this + ": queuekit did not start it and does not control its process";
    }

    @Override
    public boolean isRunning() {
        try (Jedis jedis = connect(1_000)) {
            return "PONG".equalsIgnoreCase(jedis.ping());
        } catch (JedisException e) {
            return false;
        }
    }

    @Override
    public Optional<Path> dataDirectory() {
        return Optional.empty();
    }

    @Override
    public void close() {
        // Not ours to stop.
    }

    @Override
    public String toString() {
        return "the external Redis at " + Uris.redact(uri.toString()) + " (from " + origin + ")";
    }
}
