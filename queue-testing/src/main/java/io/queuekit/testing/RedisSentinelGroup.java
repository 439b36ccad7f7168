package io.queuekit.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisSentinelClient;
import redis.clients.jedis.exceptions.JedisException;

/**
 * A real Redis Sentinel deployment for tests: a primary, one replica and three Sentinels (quorum two),
 * every one a {@link RedisServer} child process on a free port of 127.0.0.1 (PATH or EMBEDDED source,
 * the same binary for all). The Sentinels run {@code redis-server sentinel.conf --sentinel}, so no
 * {@code redis-sentinel} binary is needed.
 *
 * <pre>{@code
 * try (RedisSentinelGroup group = RedisSentinelGroup.builder().masterName("orders").start();
 *      RedisSentinelClient client = group.client()) {
 *     client.set("k", "v");
 *     RedisServer old = group.killPrimary();     // SIGKILL; the Sentinels promote the replica
 *     group.awaitPrimaryWritable(Duration.ofSeconds(20));
 *     client.set("k", "after");                  // the client followed +switch-master
 *     old.restart();                             // rejoins as a replica of the new primary
 *     group.failover();                          // SENTINEL FAILOVER: the roles swap back
 * }
 * }</pre>
 *
 * <p>{@link #primary()} and {@link #replica()} ask the Sentinels, so they follow failovers.
 * Replication is asynchronous: a write acknowledged just before {@link #killPrimary()} may be lost.
 * A killed node keeps its port and data, and {@link RedisServer#restart()} brings it back as a
 * replica of the primary then. Thread-safe; topology changes are serialized; {@link #close()} kills
 * every process.
 */
public final class RedisSentinelGroup implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RedisSentinelGroup.class);
    private static final int SENTINELS = 3;
    private static final int QUORUM = 2;
    private static final Pattern MASTER_NAME = Pattern.compile("[A-Za-z0-9._-]+");

    private static final Object SHARED_LOCK = new Object();
    private static RedisSentinelGroup sharedGroup;

    private final String masterName;
    private final List<RedisServer> nodes;
    private final List<RedisServer> sentinels;
    private final Duration timeout;
    private final boolean shared;
    private final SentinelQueries queries;

    private RedisSentinelGroup(
            String masterName, List<RedisServer> nodes, List<RedisServer> sentinels, Duration timeout, boolean shared) {
        this.masterName = masterName;
        this.nodes = List.copyOf(nodes);
        this.sentinels = List.copyOf(sentinels);
        this.timeout = timeout;
        this.shared = shared;
        this.queries = new SentinelQueries(masterName, this.nodes, this.sentinels, this);
    }

    /**
     * A builder with the defaults: master name {@code queuekit}, a primary declared down after 1.5 s, a
     * 3 s failover timeout, 30 s for each wait.
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * One group with the defaults per JVM, started on first call and closed by a shutdown hook; for tests
     * that only need some Sentinel deployment. Every test class of the JVM shares it: use unique keys,
     * never {@code FLUSHALL}, never kill its processes or fail it over. {@link #close()} on it does
     * nothing.
     */
    public static RedisSentinelGroup shared() {
        synchronized (SHARED_LOCK) {
            if (sharedGroup == null) {
                RedisSentinelGroup group = new Builder().start(true);
                Runtime.getRuntime()
                        .addShutdownHook(new Thread(group::closeProcesses, "queuekit-redis-sentinel-shutdown"));
                sharedGroup = group;
            }
            return sharedGroup;
        }
    }

    /** The name the Sentinels monitor the primary under, for a Sentinel client. */
    public String masterName() {
        return masterName;
    }

    /**
     * The data node the Sentinels name as primary now. Right after {@link #killPrimary()} that is still
     * the killed node, until they have promoted the replica; {@link #awaitPrimaryWritable(Duration)}
     * waits for that.
     *
     * @throws RedisServerException if no Sentinel answers
     */
    public RedisServer primary() {
        return queries.primary();
    }

    /** The data node that is not {@link #primary()}: after a failover, the former primary. */
    public RedisServer replica() {
        return other(primary());
    }

    /** The address of every Sentinel, for a Sentinel client. */
    public Set<HostAndPort> sentinels() {
        Set<HostAndPort> out = new LinkedHashSet<>();
        for (RedisServer sentinel : sentinels) {
            out.add(new HostAndPort(sentinel.host(), sentinel.port()));
        }
        return out;
    }

    /** A Sentinel client with the timeouts of {@link RedisClients}; the caller closes it. */
    public RedisSentinelClient client() {
        return client(settings -> {});
    }

    /**
     * A Sentinel client whose connections have the settings {@code settings} gives a
     * {@link RedisClients.Builder} (timeouts, protocol, pool; for the Sentinels too). The caller closes it.
     */
    public RedisSentinelClient client(Consumer<RedisClients.Builder> settings) {
        RedisClients.Builder config = RedisClients.builder(nodes.get(0));
        settings.accept(config);
        return RedisSentinelClient.builder()
                .masterName(masterName)
                .sentinels(sentinels())
                .clientConfig(config.clientConfig())
                .sentinelClientConfig(config.sentinelClientConfig())
                .poolConfig(config.pool())
                .build();
    }

    /**
     * Kills the primary with SIGKILL, as a crash would, and returns it once it has exited. The Sentinels
     * notice after the {@linkplain Builder#downAfter(Duration) down-after} time and promote the replica;
     * {@link #awaitPrimaryWritable(Duration)} waits for that.
     */
    public synchronized RedisServer killPrimary() {
        RedisServer primary = primary();
        primary.kill();
        LOG.info("killed the primary of {} on port {}", masterName, primary.port());
        return primary;
    }

    /**
     * Has the Sentinels promote the replica ({@code SENTINEL FAILOVER}) and returns the new primary once
     * every running Sentinel names it and it takes writes. The old primary is made a replica of it
     * before this returns; the Sentinels would do the same, but only at their next poll of it, up to
     * 10 s later.
     *
     * @throws IllegalStateException if the replica is not running
     * @throws RedisServerException if the Sentinels do not see a healthy replica within the
     *     {@linkplain Builder#timeout(Duration) timeout}, refuse the failover, or do not complete it in time
     */
    public synchronized RedisServer failover() {
        RedisServer before = primary();
        RedisServer promoted = other(before);
        if (!promoted.isRunning()) {
            throw new IllegalStateException(
                    "cannot fail over " + this + ": the replica on port " + promoted.port() + " is not running");
        }
        await(
                timeout,
                "see a healthy replica on port " + promoted.port(),
                () -> queries.replicaHealthy(promoted, before));
        try (Jedis jedis = SentinelQueries.connect(queries.runningSentinel())) {
            jedis.sentinelFailover(masterName);
        } catch (JedisException e) {
            throw new RedisServerException("the Sentinels of " + this + " refused to fail over: " + e.getMessage(), e);
        }
        await(timeout, "promote the replica on port " + promoted.port(), () -> queries.writablePrimary() == promoted);
        if (before.isRunning()) {
            try (Jedis jedis = SentinelQueries.connect(before)) {
                jedis.replicaof(promoted.host(), promoted.port());
                jedis.configRewrite();
            }
            await(timeout, "make port " + before.port() + " a replica again", () -> SentinelQueries.linkUp(before));
        }
        LOG.info("failed {} over from port {} to port {}", masterName, before.port(), promoted.port());
        return promoted;
    }

    /**
     * Waits until every running Sentinel names the same primary, that node is running, reports itself
     * primary and takes a write.
     *
     * @throws RedisServerException if that does not happen within {@code timeout}
     */
    public void awaitPrimaryWritable(Duration timeout) {
        Objects.requireNonNull(timeout, "timeout");
        await(timeout, "agree on a writable primary", () -> queries.writablePrimary() != null);
    }

    /** Kills every process and deletes their directories; idempotent; does nothing on {@link #shared()}. */
    @Override
    public void close() {
        if (!shared) {
            closeProcesses();
        }
    }

    @Override
    public String toString() {
        return "RedisSentinelGroup[" + masterName + " on ports " + nodes.get(0).port() + " and "
                + nodes.get(1).port() + ", Sentinels from port "
                + sentinels.get(0).port() + "]";
    }

    /** Both data nodes in start order (first primary first), for tests in this package. */
    List<RedisServer> nodes() {
        return nodes;
    }

    /** The Sentinel processes, for tests in this package. */
    List<RedisServer> sentinelServers() {
        return sentinels;
    }

    private void closeProcesses() {
        // Sentinels first, so none starts a failover while the data nodes go
        sentinels.forEach(RedisServer::close);
        nodes.forEach(RedisServer::close);
    }

    private RedisServer other(RedisServer node) {
        return nodes.get(0) == node ? nodes.get(1) : nodes.get(0);
    }

    private static void await(Duration timeout, String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new RedisServerException("the Sentinel group did not " + what + " within " + timeout);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RedisServerException("interrupted while waiting for the Sentinel group to " + what, e);
            }
        }
    }

    /** Configures and starts a {@link RedisSentinelGroup}. Setters validate eagerly. */
    public static final class Builder {
        private String masterName = "queuekit";
        private Duration downAfter = Duration.ofMillis(1_500);
        private Duration failoverTimeout = Duration.ofSeconds(3);
        private Duration timeout = Duration.ofSeconds(30);

        private Builder() {}

        /** The name the Sentinels monitor the primary under: letters, digits, {@code . _ -}. Default {@code queuekit}. */
        public Builder masterName(String masterName) {
            Objects.requireNonNull(masterName, "master name");
            if (!MASTER_NAME.matcher(masterName).matches()) {
                throw new IllegalArgumentException(
                        "master name must be letters, digits, '.', '_' or '-': '" + masterName + "'");
            }
            this.masterName = masterName;
            return this;
        }

        /**
         * {@code down-after-milliseconds}: how long the primary may not answer before a Sentinel counts it
         * as down; with two agreeing, they fail over. Default 1.5 s; at least 100 ms.
         */
        public Builder downAfter(Duration downAfter) {
            this.downAfter = atLeast100Millis(downAfter, "down-after");
            return this;
        }

        /**
         * {@code failover-timeout}: how long a failover may take before the Sentinels give up on it and may
         * try again (after twice this). Default 3 s; at least 100 ms.
         */
        public Builder failoverTimeout(Duration failoverTimeout) {
            this.failoverTimeout = atLeast100Millis(failoverTimeout, "failover timeout");
            return this;
        }

        /**
         * How long {@link #start()} waits for each process and for the group to form, and
         * {@link RedisSentinelGroup#failover()} for each of its steps. Default 30 s.
         */
        public Builder timeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isZero() || timeout.isNegative()) {
                throw new IllegalArgumentException("timeout must be positive: " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * Starts the primary, its replica and the Sentinels; returns once every Sentinel knows the other
         * two and sees the replica linked to the primary, and the primary takes writes.
         *
         * @throws RedisServerException if a process does not start or the group does not form in time;
         *     the processes already started are killed
         */
        public RedisSentinelGroup start() {
            return start(false);
        }

        private RedisSentinelGroup start(boolean shared) {
            List<RedisServer> nodes = new ArrayList<>();
            List<RedisServer> sentinels = new ArrayList<>();
            try {
                RedisServer primary = dataNode().start();
                nodes.add(primary);
                RedisServer replica = dataNode()
                        .config("replicaof", primary.host() + " " + primary.port())
                        .start();
                nodes.add(replica);
                // linked before the Sentinels start, so their first look at the primary lists the replica;
                // otherwise they learn of it at their next poll, 10 s later
                await(timeout, "link the replica to the primary", () -> SentinelQueries.linkUp(replica));
                for (int i = 0; i < SENTINELS; i++) {
                    sentinels.add(sentinel(primary).start());
                }
                RedisSentinelGroup group = new RedisSentinelGroup(masterName, nodes, sentinels, timeout, shared);
                await(timeout, "form", () -> group.queries.formed(primary, replica, SENTINELS - 1));
                group.awaitPrimaryWritable(timeout);
                LOG.info(
                        "Redis Sentinel group {}: primary on port {}, replica on port {}, Sentinels on ports {}",
                        masterName,
                        primary.port(),
                        replica.port(),
                        sentinels.stream().map(RedisServer::port).toList());
                return group;
            } catch (RuntimeException e) {
                sentinels.forEach(RedisServer::close);
                nodes.forEach(RedisServer::close);
                throw e;
            }
        }

        private RedisServer.Builder dataNode() {
            return RedisServer.builder()
                    .requireProcessControl()
                    .startupTimeout(timeout)
                    // a replica that (re)joins is synced at once, not after the default 5 s wait for others
                    .config("repl-diskless-sync-delay", "0")
                    // a replica whose primary just died still answers reads while the Sentinels fail over
                    .config("replica-serve-stale-data", "yes");
        }

        private RedisServer.Builder sentinel(RedisServer primary) {
            return RedisServer.builder()
                    .sentinel()
                    .requireProcessControl()
                    .startupTimeout(timeout)
                    .config(
                            "sentinel",
                            "monitor " + masterName + " " + primary.host() + " " + primary.port() + " " + QUORUM)
                    .config("sentinel", "down-after-milliseconds " + masterName + " " + downAfter.toMillis())
                    .config("sentinel", "failover-timeout " + masterName + " " + failoverTimeout.toMillis());
        }

        private static Duration atLeast100Millis(Duration duration, String what) {
            Objects.requireNonNull(duration, what);
            if (duration.toMillis() < 100) {
                throw new IllegalArgumentException(what + " must be at least 100 ms: " + duration);
            }
            return duration;
        }
    }
}
