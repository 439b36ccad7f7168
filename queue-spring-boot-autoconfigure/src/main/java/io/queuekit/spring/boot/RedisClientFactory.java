package io.queuekit.spring.boot;

import io.queuekit.redis.internal.JedisClient;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ssl.SslBundles;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * The Jedis client the starter makes from {@code spring.data.redis.*}: a Sentinel client when a
 * Sentinel master is named, a cluster client when cluster nodes are, else a pooled client on the URL
 * or host and port, each of the classes the Jedis on the classpath has ({@link JedisClient}: Jedis 7.0
 * to 8). Every wait is bounded, as
 * {@code docs/reliability-and-security.md} asks: connect and command timeouts from the properties (Jedis' 2 s if unset),
 * blocking reads above the longest block timeout of the queues, and a pool with room for every
 * connection the listeners hold while they wait, plus some, that waits at most 2 s for a free one.
 */
final class RedisClientFactory {
    private static final Logger LOG = LoggerFactory.getLogger(RedisClientFactory.class);
    private static final Duration JEDIS_DEFAULT_TIMEOUT = Duration.ofSeconds(2);
    /** How far the blocking read timeout stays above the longest block timeout. */
    static final Duration BLOCKING_MARGIN = Duration.ofMillis(1_500);

    private static final Duration POOL_MAX_WAIT = Duration.ofSeconds(2);

    private RedisClientFactory() {}

    @SuppressWarnings("deprecation") // ssl(boolean): as Jedis' own RedisClient.Builder.fromURI sets it
    static UnifiedJedis create(RedisSettings s, QueueDefinitions queues, SslBundles bundles) {
        URI uri = s.url() == null ? null : URI.create(s.url());
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(
                        millis(s.connectTimeout() != null ? s.connectTimeout() : JEDIS_DEFAULT_TIMEOUT))
                .socketTimeoutMillis(millis(s.timeout() != null ? s.timeout() : JEDIS_DEFAULT_TIMEOUT))
                .blockingSocketTimeoutMillis(millis(queues.longestBlockTimeout().plus(BLOCKING_MARGIN)))
                .clientName(s.clientName());
        if (uri != null) {
            config.user(JedisURIHelper.getUser(uri))
                    .password(JedisURIHelper.getPassword(uri))
                    .ssl(JedisURIHelper.isRedisSSLScheme(uri));
            if (JedisClient.hasDbIndex(uri)) {
                config.database(JedisURIHelper.getDBIndex(uri));
            }
        } else {
            config.user(s.username()).password(s.password()).ssl(s.sslEnabled());
            if (s.database() != null) {
                config.database(s.database());
            }
        }
        if (s.ssl() != null && s.ssl().bundle() != null) {
            SSLContext context = bundles.getBundle(s.ssl().bundle()).createSslContext();
            config.ssl(true).sslSocketFactory(context.getSocketFactory());
        }
        JedisClientConfig clientConfig = config.build();
        ConnectionPoolConfig pool = pool(s.pool(), queues.poolSize());
        if (s.sentinelConfigured()) {
            // Jedis' own Sentinel connections speak RESP2 and warn otherwise
            JedisClientConfig sentinelConfig = JedisClient.withoutProtocolNegotiation(
                            DefaultJedisClientConfig.builder())
                    .user(s.sentinel().username())
                    .password(s.sentinel().password())
                    .connectionTimeoutMillis(clientConfig.getConnectionTimeoutMillis())
                    .socketTimeoutMillis(clientConfig.getSocketTimeoutMillis())
                    .blockingSocketTimeoutMillis(
                            0) // the +switch-master subscription waits as long as no failover comes
                    .build();
            return JedisClient.sentinel(
                    s.sentinel().master(),
                    addresses(s.sentinel().nodes(), "spring.data.redis.sentinel.nodes"),
                    clientConfig,
                    sentinelConfig,
                    pool);
        }
        if (s.clusterConfigured()) {
            return JedisClient.cluster(
                    addresses(s.cluster().nodes(), "spring.data.redis.cluster.nodes"),
                    clientConfig,
                    pool,
                    s.cluster().maxRedirects());
        }
        HostAndPort address = uri != null
                ? JedisURIHelper.getHostAndPort(uri)
                : new HostAndPort(s.host() != null ? s.host() : "localhost", s.port() != null ? s.port() : 6379);
        return JedisClient.standalone(address, clientConfig, pool);
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

    private static Set<HostAndPort> addresses(List<String> nodes, String property) {
        Set<HostAndPort> addresses = new LinkedHashSet<>();
        for (String node : nodes) {
            try {
                addresses.add(HostAndPort.from(node.trim()));
            } catch (RuntimeException e) { // Jedis throws StringIndexOutOfBounds or NumberFormat, not one type
                throw new QueueConfigurationException(
                        property + " has '" + node + "', which is not host:port",
                        "Write each node of " + property + " as host:port.",
                        e);
            }
        }
        return addresses;
    }

    private static int millis(Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, d.toMillis());
    }
}
