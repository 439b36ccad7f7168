package io.queuekit.testing;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.utility.DockerImageName;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;

/**
 * Redis in a Testcontainers container. The only class that names Testcontainers types: Testcontainers is an
 * optional dependency, so the resolver checks the classpath with {@link #TESTCONTAINERS_PROBE} before it
 * calls anything here, and nothing loads this class unless Docker is a candidate.
 */
final class DockerServer implements Backend.Uncontrolled {

    static final String TESTCONTAINERS_PROBE = "org.testcontainers.DockerClientFactory";
    private static final int REDIS_PORT = 6379;
    private static final String CONF = "/usr/local/etc/redis/redis.conf";

    private final GenericContainer<?> container;
    private final String password;

    private DockerServer(GenericContainer<?> container, String password) {
        this.container = container;
        this.password = password;
    }

    static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    static DockerServer start(Settings settings) throws StartFailure {
        List<Directive> managed = new ArrayList<>();
        managed.add(new Directive("port", Integer.toString(REDIS_PORT)));
        // Clients arrive through Docker's port mapping, i.e. not from loopback, so protected mode must be off.
        managed.add(new Directive("bind", "0.0.0.0"));
        managed.add(new Directive("protected-mode", "no"));
        managed.add(new Directive("daemonize", "no"));
        managed.add(new Directive("dir", "/data"));
        if (settings.appendOnly()) {
            managed.add(new Directive("appendonly", "yes"));
            managed.add(new Directive("appendfsync", "always"));
        } else {
            managed.add(new Directive("save", ""));
            managed.add(new Directive("appendonly", "no"));
        }
        GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(RedisServer.DOCKER_IMAGE));
        container
                .withExposedPorts(REDIS_PORT)
                .withCopyToContainer(Transferable.of(Directive.render(managed, settings.config())), CONF)
                .withCommand("redis-server", CONF)
                .waitingFor(Wait.forLogMessage(".*Ready to accept connections.*\\n", 1))
                .withStartupTimeout(settings.startupTimeout());
        try {
            container.start();
        } catch (RuntimeException e) {
            String logs = logsOf(container);
            container.stop();
            throw new StartFailure(
                    logs.contains("FATAL CONFIG FILE ERROR")
                            ? StartFailure.Kind.CONFIG_REJECTED
                            : StartFailure.Kind.FAILED,
                    "container " + RedisServer.DOCKER_IMAGE + " did not start: " + e
                            + (logs.isBlank() ? "" : "\n--- container log ---\n" + logs.strip()),
                    e);
        }
        DockerServer server = new DockerServer(container, settings.password());
        Readiness.Outcome outcome;
        try {
            outcome = Readiness.await(server::connect, container::isRunning, settings.startupTimeout());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            container.stop();
            throw new StartFailure(StartFailure.Kind.FAILED, "interrupted while waiting for the container", e);
        }
        if (!outcome.ready()) {
            container.stop();
            throw new StartFailure(
                    StartFailure.Kind.FAILED,
                    "container " + RedisServer.DOCKER_IMAGE + " did not answer PING (last problem: " + outcome.problem()
                            + ")");
        }
        return server;
    }

    private static String logsOf(GenericContainer<?> container) {
        try {
            return container.getLogs();
        } catch (RuntimeException e) {
            return "";
        }
    }

    @Override
    public String host() {
        return container.getHost();
    }

    @Override
    public int port() {
        return container.getMappedPort(REDIS_PORT);
    }

    @Override
    public String uri() {
        return Uris.local(host(), port(), password);
    }

    @Override
    public Jedis connect(int timeoutMillis) {
        return new Jedis(
                host(),
                port(),
                JedisVersions.withoutProtocolNegotiation(DefaultJedisClientConfig.builder())
                        .connectionTimeoutMillis(timeoutMillis)
                        .socketTimeoutMillis(timeoutMillis)
                        .password(password)
                        .build());
    }

    // Docker re-maps a dynamic host port on restart, which would break "restart keeps the port".
    @Override
    public String uncontrolled() {
        return "the Redis container: the DOCKER source has no process control because a restarted container"
                + " gets a new host port";
    }

    @Override
    public boolean isRunning() {
        return container.isRunning();
    }

    @Override
    public Optional<Path> dataDirectory() {
        return Optional.empty();
    }

    @Override
    public synchronized void close() {
        try {
            container.stop();
        } catch (RuntimeException e) {
            // Ryuk removes the container anyway when the JVM exits.
        }
    }
}
