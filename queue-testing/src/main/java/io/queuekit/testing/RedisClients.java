package io.queuekit.testing;

import java.net.URI;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Consumer;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.providers.PooledConnectionProvider;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * Jedis clients for tests, set up the way {@code docs/reliability-and-security.md} tells users to set up clients
 * for queuekit: every wait is bounded, so a test against a dead or frozen server fails instead of hanging.
 *
 * <pre>{@code
 * try (RedisClient client = RedisClients.create(server)) { ... }
 *
 * RedisClient resp2 = RedisClients.builder(server).protocol(RedisProtocol.RESP2).poolSize(4).build();
 * }</pre>
 * {@link #create} and {@link Builder#build()} return Jedis' {@code RedisClient}, which Jedis has from 7.4
 * on; {@link #pooled} and {@link Builder#buildPooled()} return the same client typed as {@link UnifiedJedis},
 * and a {@code JedisPooled} on Jedis 7.0 (as Spring Boot 4.0 manages it).
 *
 * <p>The defaults:
 * <ul>
 *   <li>{@link #CONNECTION_TIMEOUT} and {@link #SOCKET_TIMEOUT} bound connecting and every ordinary
 *       command;</li>
 *   <li>{@link #BLOCKING_SOCKET_TIMEOUT} bounds the reads of blocking commands (BLMOVE, BRPOP, BLPOP). It
 *       is above the queues' default block timeout of 1 s, as the queues' Javadoc asks; Jedis' own default
 *       of 0 waits forever, so a consumer on a connection that died silently would hang;</li>
 *   <li>a pool of {@link #POOL_SIZE} connections (every blocked consumer and every subscription holds
 *       one) that waits at most {@link #POOL_MAX_WAIT} for a free one (the pool's default waits
 *       forever);</li>
 *   <li>user, password, database and TLS from the server's URI; the protocol Jedis negotiates.</li>
 * </ul>
 * A test that needs something else says so on the {@link Builder}, e.g. a blocking timeout of
 * {@link Duration#ZERO} to show what happens with Jedis' default. Clients are the caller's to close.
 */
public final class RedisClients {

    /** Connect timeout of the clients built here: 1 s. */
    public static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(1);
    /** Read timeout of ordinary commands: 1 s. */
    public static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(1);
    /** Read timeout of blocking commands: 2.5 s, above the queues' default block timeout of 1 s. */
    public static final Duration BLOCKING_SOCKET_TIMEOUT = Duration.ofMillis(2_500);
    /** Connections per pool: 32, room for a contract test's concurrent consumers plus producers. */
    public static final int POOL_SIZE = 32;
    /** Longest wait for a free connection when the pool is exhausted: 2 s. */
    public static final Duration POOL_MAX_WAIT = Duration.ofSeconds(2);

    private RedisClients() {}

    /** A pooled client for {@code server} with the defaults above; needs Jedis 7.4 or later. */
    public static RedisClient create(RedisServer server) {
        return builder(server).build();
    }

    /**
     * A pooled client for {@code server} with the defaults above, on any Jedis queuekit runs on: a
     * {@code RedisClient}, or a {@code JedisPooled} on Jedis 7.0.
     */
    public static UnifiedJedis pooled(RedisServer server) {
        return builder(server).buildPooled();
    }

    /** A builder for clients of {@code server}, starting from the defaults above. */
    public static Builder builder(RedisServer server) {
        return builder(Objects.requireNonNull(server, "server").uri());
    }

    /**
     * A builder for clients of the server at {@code uri} ({@code redis://[user:password@]host:port[/db]}, or
     * {@code rediss://} for TLS), for code that has an address but no {@link RedisServer}, such as a child
     * JVM.
     */
    public static Builder builder(String uri) {
        return new Builder(URI.create(Objects.requireNonNull(uri, "uri")));
    }

    /**
     * A pool configuration with the defaults above and {@code size} connections, for a test that changes
     * one more setting and passes it to {@link Builder#pool(ConnectionPoolConfig)}.
     */
    public static ConnectionPoolConfig poolConfig(int size) {
        if (size < 1) {
            throw new IllegalArgumentException("pool size must be at least 1: " + size);
        }
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(size);
        pool.setMaxIdle(size);
        pool.setMaxWait(POOL_MAX_WAIT);
        return pool;
    }

    /**
     * Read events the server has processed ({@code total_reads_processed} of INFO stats): one per
     * round trip whose commands arrive together, so a test can count a client's round trips.
     */
    public static long readsProcessed(UnifiedJedis client) {
        return Long.parseLong(Readiness.infoField(client.info("stats"), "total_reads_processed"));
    }

    /**
     * Counts the round trips the server reads from now on, less those its own readings of INFO
     * make (each is a round trip too), for a test that bounds what a client does over a while.
     */
    public static RoundTrips roundTrips(UnifiedJedis client) {
        return new RoundTrips(client);
    }

    /** Round trips since it was made, its own left out; thread-safe. */
    public static final class RoundTrips {
        private final UnifiedJedis client;
        private final long start;
        private long readings;

        private RoundTrips(UnifiedJedis client) {
            this.client = client;
            this.start = readsProcessed(client);
        }

        /** The round trips the server read since this was made, other than this counter's. */
        public synchronized long count() {
            readings++;
            return readsProcessed(client) - start - readings;
        }
    }

    /**
     * Calls of {@code command} the server has run since its statistics were last reset (INFO
     * commandstats; commands scripts run count too): 0 if none.
     */
    public static long commandCalls(UnifiedJedis client, String command) {
        String prefix = "cmdstat_" + command.toLowerCase(java.util.Locale.ROOT) + ":calls=";
        for (String line : client.info("commandstats").split("\r?\n", -1)) {
            if (line.startsWith(prefix)) {
                String rest = line.substring(prefix.length());
                int end = rest.indexOf(',');
                return Long.parseLong(end < 0 ? rest : rest.substring(0, end));
            }
        }
        return 0;
    }

    /**
     * Every key matching {@code pattern} (KEYS) with its serialized value (DUMP, in Base64), in
     * key order: equal before and after a call that must change nothing.
     */
    public static Map<String, String> dumpKeys(UnifiedJedis client, String pattern) {
        Map<String, String> out = new TreeMap<>();
        for (String key : client.keys(pattern)) {
            out.put(key, Base64.getEncoder().encodeToString(client.dump(key)));
        }
        return out;
    }

    /**
     * Settings for one or more clients. Setters validate eagerly; {@link #build()} and
     * {@link #buildPlain()} may be called more than once, each returning a new client.
     */
    public static final class Builder {
        private final URI uri;
        private HostAndPort address;
        private RedisProtocol protocol;
        private Duration connectionTimeout = CONNECTION_TIMEOUT;
        private Duration socketTimeout = SOCKET_TIMEOUT;
        private Duration blockingSocketTimeout = BLOCKING_SOCKET_TIMEOUT;
        private ConnectionPoolConfig pool;
        private int poolSize = POOL_SIZE;
        private Consumer<DefaultJedisClientConfig.Builder> customizer = config -> {};

        private Builder(URI uri) {
            if (!JedisURIHelper.isValid(uri)) {
                throw new IllegalArgumentException("not a redis:// or rediss:// URI with host and port: " + uri);
            }
            this.uri = uri;
            this.address = JedisURIHelper.getHostAndPort(uri);
        }

        /**
         * Connects to {@code host:port} instead of the server's own address (a proxy in front of it, or a
         * second listening port such as {@code tls-port}); credentials and database still come from the
         * server's URI.
         */
        public Builder address(String host, int port) {
            this.address = new HostAndPort(Objects.requireNonNull(host, "host"), port);
            return this;
        }

        /** Speaks {@code protocol} instead of negotiating (RESP3 on Redis 6 and later). */
        public Builder protocol(RedisProtocol protocol) {
            this.protocol = Objects.requireNonNull(protocol, "protocol");
            return this;
        }

        /** Sets the connection, socket and blocking socket timeouts all to {@code timeout}. */
        public Builder timeouts(Duration timeout) {
            connectionTimeout(timeout);
            socketTimeout(timeout);
            return blockingSocketTimeout(timeout);
        }

        /** Connect timeout; positive. */
        public Builder connectionTimeout(Duration timeout) {
            this.connectionTimeout = positive(timeout, "connection timeout");
            return this;
        }

        /** Read timeout of ordinary commands; positive. */
        public Builder socketTimeout(Duration timeout) {
            this.socketTimeout = positive(timeout, "socket timeout");
            return this;
        }

        /**
         * Read timeout of blocking commands, and of a plain client's subscriptions; zero waits forever
         * (Jedis' default, which the README warns against), for tests that show what happens then.
         */
        public Builder blockingSocketTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "blocking socket timeout");
            if (timeout.isNegative()) {
                throw new IllegalArgumentException("blocking socket timeout must not be negative: " + timeout);
            }
            this.blockingSocketTimeout = timeout;
            return this;
        }

        /** Connections in the pool (default {@value RedisClients#POOL_SIZE}), waiting at most {@link RedisClients#POOL_MAX_WAIT}. */
        public Builder poolSize(int size) {
            poolConfig(size);
            this.poolSize = size;
            this.pool = null;
            return this;
        }

        /** Uses {@code pool} as it is, replacing the default pool settings and {@link #poolSize(int)}. */
        public Builder pool(ConnectionPoolConfig pool) {
            this.pool = Objects.requireNonNull(pool, "pool");
            return this;
        }

        /**
         * Applies {@code customizer} to the client configuration after the settings above, for anything
         * else: TLS options, another user ({@code c -> c.user("orders").password("secret")}).
         */
        public Builder configure(Consumer<DefaultJedisClientConfig.Builder> customizer) {
            Objects.requireNonNull(customizer, "customizer");
            Consumer<DefaultJedisClientConfig.Builder> before = this.customizer;
            this.customizer = before.andThen(customizer);
            return this;
        }

        /** The client configuration the clients get, for code that builds its own Jedis objects. */
        @SuppressWarnings("deprecation") // ssl(boolean): Jedis' own RedisClient.Builder.fromURI sets it the same way
        public JedisClientConfig clientConfig() {
            DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                    .user(JedisURIHelper.getUser(uri))
                    .password(JedisURIHelper.getPassword(uri))
                    .ssl(JedisURIHelper.isRedisSSLScheme(uri))
                    .connectionTimeoutMillis(millis(connectionTimeout))
                    .socketTimeoutMillis(millis(socketTimeout))
                    .blockingSocketTimeoutMillis(millis(blockingSocketTimeout));
            if (JedisVersions.hasDbIndex(uri)) {
                config.database(JedisURIHelper.getDBIndex(uri));
            }
            if (protocol != null) {
                config.protocol(protocol);
            }
            customizer.accept(config);
            return config.build();
        }

        /**
         * The configuration of connections to Sentinels, for {@link RedisSentinelGroup#client(Consumer)}: this
         * builder's connect and command timeouts, and no blocking read timeout. Jedis reads its subscription
         * to a Sentinel's {@code +switch-master} with that timeout; a bounded one would end the idle
         * subscription each time it ran out, log a warning and subscribe again only seconds later, so a
         * failover in between would reach the client late. Credentials, database and {@link #configure} settings are the
         * data nodes'; the Sentinels of {@link RedisSentinelGroup} need none.
         */
        JedisClientConfig sentinelClientConfig() {
            // Jedis' own Sentinel connections speak RESP2 and warn otherwise
            return JedisVersions.withoutProtocolNegotiation(DefaultJedisClientConfig.builder())
                    .connectionTimeoutMillis(millis(connectionTimeout))
                    .socketTimeoutMillis(millis(socketTimeout))
                    .blockingSocketTimeoutMillis(0)
                    .build();
        }

        /** A pooled {@link RedisClient}; the caller closes it. Needs Jedis 7.4 or later. */
        public RedisClient build() {
            return (RedisClient) buildPooled();
        }

        /**
         * A pooled client on any Jedis queuekit runs on: a {@code RedisClient}, or a {@code JedisPooled} on
         * Jedis 7.0. The caller closes it.
         */
        public UnifiedJedis buildPooled() {
            return JedisVersions.pooled(address, clientConfig(), pool());
        }

        /**
         * A plain {@link UnifiedJedis} on a pool of its own, none of the client classes whose pool a
         * subscription can reach: Jedis lends each subscription its connection, read with this client's
         * blocking socket timeout (see {@code RedisBroadcaster}). The caller closes it.
         */
        @SuppressWarnings("deprecation") // Jedis 8's only public constructor of a plain UnifiedJedis on a pool
        public UnifiedJedis buildPlain() {
            PooledConnectionProvider provider = new PooledConnectionProvider(address, clientConfig(), pool());
            return new UnifiedJedis(provider, 3, Duration.ofSeconds(5));
        }

        /** The pool settings the clients get, for fixtures that build other Jedis clients. */
        ConnectionPoolConfig pool() {
            return pool != null ? pool : poolConfig(poolSize);
        }

        private static Duration positive(Duration timeout, String what) {
            Objects.requireNonNull(timeout, what);
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException(what + " must be positive: " + timeout);
            }
            return timeout;
        }

        private static int millis(Duration timeout) {
            return Math.toIntExact(timeout.toMillis());
        }
    }
}
