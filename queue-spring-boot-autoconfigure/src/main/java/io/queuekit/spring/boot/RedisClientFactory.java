package io.queuekit.spring.boot;

import io.queuekit.redis.internal.JedisClient;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocketFactory;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslOptions;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.UnifiedJedis;

/**
 * The Jedis client the starter makes from a {@link RedisConnection}: a Sentinel client for
 * Sentinels, a cluster client for a cluster, else a pooled client, each of the classes the Jedis on
 * the classpath has ({@link JedisClient}: Jedis 7.0 to 8), with the
 * client settings Spring Boot's Jedis connection would have. Every wait is bounded, as
 * {@code docs/reliability-and-security.md} asks: connect and command timeouts from the properties (2 s if unset),
 * blocking reads above the longest block timeout of the queues, and a pool with room for every
 * connection the listeners hold while they wait, plus some, that waits at most 2 s for a free one.
 */
final class RedisClientFactory {
    private static final Logger LOG = LoggerFactory.getLogger(RedisClientFactory.class);
    /** How far the blocking read timeout stays above the longest block timeout. */
    static final Duration BLOCKING_MARGIN = Duration.ofMillis(1_500);

    private static final Duration POOL_MAX_WAIT = Duration.ofSeconds(2);

    private RedisClientFactory() {}

    static UnifiedJedis create(
            RedisConnection c,
            RedisSettings.Pool poolSettings,
            QueueDefinitions queues,
            List<RedisClientCustomizer> customizers) {
        Tls tls = Tls.of(c);
        JedisClientConfig clientConfig = clientConfig(c, tls, queues, customizers);
        ConnectionPoolConfig pool = pool(poolSettings, queues.poolSize());
        if (c.topology() instanceof RedisConnection.Sentinel sentinel) {
            JedisClientConfig sentinelConfig = sentinelClientConfig(c, tls, sentinel);
            return JedisClient.sentinel(
                    sentinel.master(), new LinkedHashSet<>(sentinel.nodes()), clientConfig, sentinelConfig, pool);
        }
        if (c.topology() instanceof RedisConnection.Cluster clusterNodes) {
            return JedisClient.cluster(
                    new LinkedHashSet<>(clusterNodes.nodes()), clientConfig, pool, clusterNodes.maxRedirects());
        }
        HostAndPort address = ((RedisConnection.Standalone) c.topology()).address();
        return JedisClient.standalone(address, clientConfig, pool);
    }

    /** The data nodes' settings: Spring Data Redis' Jedis client configuration, plus the blocking read timeout. */
    static JedisClientConfig clientConfig(RedisConnection c, QueueDefinitions queues) {
        return clientConfig(c, Tls.of(c), queues, List.of());
    }

    private static JedisClientConfig clientConfig(
            RedisConnection c, Tls tls, QueueDefinitions queues, List<RedisClientCustomizer> customizers) {
        DefaultJedisClientConfig.Builder config = common(c, tls)
                .blockingSocketTimeoutMillis(millis(queues.longestBlockTimeout().plus(BLOCKING_MARGIN)))
                .user(c.username())
                .password(c.password());
        if (c.topology() instanceof RedisConnection.Standalone standalone) {
            config.database(standalone.database());
        } else if (c.topology() instanceof RedisConnection.Sentinel sentinel) {
            config.database(sentinel.database());
        } // a cluster has database 0 only
        for (RedisClientCustomizer customizer : customizers) {
            customizer.customize(config);
        }
        return config.build();
    }

    /**
     * The Sentinels' settings: as Spring Data Redis makes them, the data nodes' timeouts, client name and
     * TLS with the Sentinels' own credentials.
     */
    static JedisClientConfig sentinelClientConfig(RedisConnection c, RedisConnection.Sentinel sentinel) {
        return sentinelClientConfig(c, Tls.of(c), sentinel);
    }

    private static JedisClientConfig sentinelClientConfig(
            RedisConnection c, Tls tls, RedisConnection.Sentinel sentinel) {
        // Jedis' own Sentinel connections speak RESP2 and warn otherwise
        return JedisClient.withoutProtocolNegotiation(common(c, tls))
                .user(sentinel.username())
                .password(sentinel.password())
                .blockingSocketTimeoutMillis(0) // the +switch-master subscription waits as long as no failover comes
                .build();
    }

    @SuppressWarnings("deprecation") // ssl(boolean): as Jedis' own RedisClient.Builder.fromURI sets it
    private static DefaultJedisClientConfig.Builder common(RedisConnection c, Tls tls) {
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(millis(c.connectTimeout()))
                .socketTimeoutMillis(millis(c.timeout()))
                .clientName(c.clientName());
        if (c.ssl()) {
            config.ssl(true).sslSocketFactory(tls.socketFactory()).sslParameters(tls.parameters());
        }
        return config;
    }

    /**
     * TLS as Boot's Jedis connection sets it up: the bundle's socket factory, and its ciphers and
     * protocols as SSL parameters; both null (Jedis' defaults) without a bundle. Made once per client,
     * so the data nodes and the Sentinels share one SSL context.
     */
    private record Tls(
            @Nullable SSLSocketFactory socketFactory,
            @Nullable SSLParameters parameters) {
        static Tls of(RedisConnection c) {
            SslBundle bundle = c.sslBundle();
            if (!c.ssl() || bundle == null) {
                return new Tls(null, null);
            }
            SSLParameters parameters = new SSLParameters();
            SslOptions options = bundle.getOptions();
            if (options.getCiphers() != null) {
                parameters.setCipherSuites(options.getCiphers());
            }
            if (options.getEnabledProtocols() != null) {
                parameters.setProtocols(options.getEnabledProtocols());
            }
            return new Tls(bundle.createSslContext().getSocketFactory(), parameters);
        }
    }

    static ConnectionPoolConfig pool(RedisSettings.Pool settings, int needed) {
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        int size = settings.maxActive() != null ? settings.maxActive() : needed;
        if (size < needed) {
            LOG.warn(
                    "spring.data.redis.jedis.pool.max-active={} is below the {} connections queuekit's listeners hold "
                            + "while they wait, plus {} for sending: consumers and producers will wait for connections",
                    size,
                    needed - QueueDefinitions.SPARE_CONNECTIONS,
                    QueueDefinitions.SPARE_CONNECTIONS);
        }
        pool.setMaxTotal(size);
        pool.setMaxIdle(settings.maxIdle() != null ? settings.maxIdle() : size);
        if (settings.minIdle() != null) {
            pool.setMinIdle(settings.minIdle());
        }
        pool.setMaxWait(
                settings.maxWait() != null && !settings.maxWait().isNegative() ? settings.maxWait() : POOL_MAX_WAIT);
        return pool;
    }

    private static int millis(Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, d.toMillis());
    }
}
