package io.queuekit.spring.boot;

import io.queuekit.spring.boot.RedisConnection.Standalone;
import io.queuekit.spring.boot.RedisConnection.Topology;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.core.env.Environment;
import redis.clients.jedis.HostAndPort;

/**
 * The application's own {@code spring.data.redis.*} settings, the ones Spring Data Redis reads,
 * bound here without Spring Data Redis on the classpath. Unset values are null.
 */
record RedisSettings(
        @Nullable String url,
        @Nullable String host,
        @Nullable Integer port,
        @Nullable String username,
        @Nullable String password,
        @Nullable Integer database,
        @Nullable String clientName,
        @Nullable Duration timeout,
        @Nullable Duration connectTimeout,
        @Nullable Ssl ssl,
        @Nullable Sentinel sentinel,
        @Nullable Cluster cluster,
        @Nullable Masterreplica masterreplica,
        @Nullable Jedis jedis) {

    private static final String PREFIX = "spring.data.redis.";

    record Ssl(@Nullable Boolean enabled, @Nullable String bundle) {}

    record Sentinel(
            @Nullable String master,
            @Nullable List<String> nodes,
            @Nullable String username,
            @Nullable String password) {}

    record Cluster(@Nullable List<String> nodes, @Nullable Integer maxRedirects) {}

    record Masterreplica(@Nullable List<String> nodes) {}

    record Jedis(@Nullable Pool pool) {}

    record Pool(
            @Nullable Integer maxActive,
            @Nullable Integer maxIdle,
            @Nullable Integer minIdle,
            @Nullable Duration maxWait) {}

    static RedisSettings of(Environment environment) {
        return Binder.get(environment)
                .bind("spring.data.redis", RedisSettings.class)
                .orElse(new RedisSettings(
                        null, null, null, null, null, null, null, null, null, null, null, null, null, null));
    }

    /**
     * The connection these properties describe, by the rules of Boot's
     * {@code PropertiesDataRedisConnectionDetails}: a URL overrides host, port, username, password and
     * database; a bundle is used, and TLS enabled, only while {@code ssl.enabled} (by default: whether a
     * bundle is named) holds, and SSL enabled without a bundle uses the JDK's defaults; Sentinel wins
     * over cluster, cluster over master/replica, which Jedis does not support, and that over a single
     * server.
     *
     * @param bundles the application's SSL bundles, null if it has none
     */
    RedisConnection connection(@Nullable SslBundles bundles) {
        Url parsed = url != null ? Url.parse(url) : null;
        Standalone standalone = parsed != null
                ? new Standalone(parsed.address(), parsed.database())
                : new Standalone(
                        new HostAndPort(standaloneHost(), port != null ? port : 6379),
                        database(database != null ? database : 0, PREFIX + "database"));
        return RedisConnection.of(
                this,
                topology(standalone),
                parsed != null ? parsed.username() : username,
                parsed != null ? parsed.password() : password,
                sslBundle(bundles));
    }

    private Topology topology(Standalone standalone) {
        if (sentinel != null) {
            if (!RedisConnection.hasText(sentinel.master())) {
                throw new QueueConfigurationException(
                        PREFIX + "sentinel.* is set but " + PREFIX + "sentinel.master is not",
                        "Set " + PREFIX + "sentinel.master to the name the Sentinels monitor the primary under.");
            }
            return new RedisConnection.Sentinel(
                    sentinel.master(),
                    nodes(sentinel.nodes(), PREFIX + "sentinel.nodes"),
                    standalone.database(),
                    sentinel.username(),
                    sentinel.password());
        }
        if (cluster != null) {
            return new RedisConnection.Cluster(nodes(cluster.nodes(), PREFIX + "cluster.nodes"), maxRedirects());
        }
        if (masterreplica != null) {
            throw masterReplicaUnsupported(PREFIX + "masterreplica.nodes");
        }
        return standalone;
    }

    /** {@code cluster.max-redirects}, which Boot applies to connection details' clusters too. */
    @Nullable
    Integer maxRedirects() {
        return cluster != null ? cluster.maxRedirects() : null;
    }

    static QueueConfigurationException masterReplicaUnsupported(String source) {
        return new QueueConfigurationException(
                source + " asks for a static master/replica setup, which Jedis does not support"
                        + " (neither does Spring Boot's Jedis connection)",
                "Connect to the primary alone (" + PREFIX + "url or host and port), or through Sentinel.");
    }

    private @Nullable SslBundle sslBundle(@Nullable SslBundles bundles) {
        String bundle = ssl != null ? ssl.bundle() : null;
        boolean enabled = (ssl != null && ssl.enabled() != null) ? ssl.enabled() : RedisConnection.hasText(bundle);
        if (!enabled) {
            return null;
        }
        if (bundle == null || bundle.isEmpty()) {
            return SslBundle.systemDefault();
        }
        if (bundles == null) {
            throw new QueueConfigurationException(
                    PREFIX + "ssl.bundle is '" + bundle + "' but the application has no SSL bundles",
                    "Define the bundle under spring.ssl.bundle, with Spring Boot's SSL auto-configuration.");
        }
        return bundles.getBundle(bundle);
    }

    private String standaloneHost() {
        String h = host != null ? host : "localhost";
        if (h.isEmpty()) {
            throw new QueueConfigurationException(
                    PREFIX + "host is empty", "Set " + PREFIX + "host, or leave it out for localhost.");
        }
        return h;
    }

    private static int database(int database, String source) {
        if (database < 0) {
            throw new QueueConfigurationException(
                    source + " is " + database + ", which is not a database index",
                    "Use a database index of 0 or more.");
        }
        return database;
    }

    /** {@code host:port} entries, parsed as Boot does: the port after the last colon. */
    static List<HostAndPort> nodes(@Nullable List<String> nodes, String property) {
        if (nodes == null || nodes.isEmpty()) {
            throw new QueueConfigurationException(
                    property + " is empty", "Write the nodes of " + property + " as host:port, separated by commas.");
        }
        List<HostAndPort> addresses = new ArrayList<>();
        for (String node : nodes) {
            String n = node.trim();
            int colon = n.lastIndexOf(':');
            try {
                if (colon <= 0) {
                    throw new IllegalArgumentException("no host:port");
                }
                addresses.add(new HostAndPort(n.substring(0, colon), Integer.parseInt(n.substring(colon + 1))));
            } catch (IllegalArgumentException e) {
                throw new QueueConfigurationException(
                        property + " has '" + node + "', which is not host:port",
                        "Write each node of " + property + " as host:port.",
                        e);
            }
        }
        return addresses;
    }

    /**
     * A {@code spring.data.redis.url}, read as Boot's {@code DataRedisUrl} reads it: {@code rediss}
     * means TLS; user info {@code user:password} gives both, user info without a colon is a password;
     * the path is the database, 0 if none. Error messages leave the URL's user info out.
     */
    record Url(
            HostAndPort address,
            boolean ssl,
            @Nullable String username,
            @Nullable String password,
            int database) {
        private static final String PROPERTY = PREFIX + "url";

        static Url parse(String url) {
            URI uri;
            try {
                uri = new URI(url);
            } catch (URISyntaxException e) {
                throw invalid("is not a valid URI (" + e.getReason() + ")", null);
            }
            String shown = redacted(uri);
            String scheme = uri.getScheme();
            if (!"redis".equals(scheme) && !"rediss".equals(scheme)) {
                throw invalid("'" + shown + "' is neither redis:// nor rediss://", null);
            }
            if (uri.getHost() == null || uri.getHost().isEmpty()) {
                throw invalid("'" + shown + "' has no host", null);
            }
            if (uri.getPort() < 0) {
                throw invalid("'" + shown + "' has no port", null);
            }
            String userInfo = uri.getUserInfo();
            String username = null;
            String password = null;
            if (userInfo != null) {
                int colon = userInfo.indexOf(':');
                username = colon >= 0 ? userInfo.substring(0, colon) : null;
                password = colon >= 0 ? userInfo.substring(colon + 1) : userInfo;
            }
            return new Url(
                    new HostAndPort(uri.getHost(), uri.getPort()),
                    "rediss".equals(scheme),
                    username,
                    password,
                    database(uri, shown));
        }

        private static int database(URI uri, String shown) {
            String path = uri.getPath();
            if (path == null || path.isBlank()) {
                return 0;
            }
            String[] split = path.split("/", 2);
            if (split.length < 2 || split[1].isEmpty()) {
                return 0;
            }
            try {
                return RedisSettings.database(Integer.parseInt(split[1]), PROPERTY);
            } catch (NumberFormatException e) {
                throw invalid("'" + shown + "' has the path '" + path + "', which is not a database index", e);
            }
        }

        private static String redacted(URI uri) {
            if (uri.getRawUserInfo() == null) {
                return uri.toString();
            }
            String s = uri.toString();
            return s.replace(uri.getRawUserInfo() + "@", "***@");
        }

        private static QueueConfigurationException invalid(String problem, @Nullable Throwable cause) {
            return new QueueConfigurationException(
                    PROPERTY + " " + problem,
                    "Write " + PROPERTY + " as redis://[[user]:password@]host:port[/database], or rediss://"
                            + " for TLS.",
                    cause);
        }
    }

    Pool pool() {
        return jedis == null || jedis.pool() == null ? new Pool(null, null, null, null) : jedis.pool();
    }
}
