package io.queuekit.spring.boot;

import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.ssl.SslBundle;
import redis.clients.jedis.HostAndPort;

/**
 * Where and how the starter's client connects, resolved by Spring Boot's rules from Boot's Redis
 * connection details when the application has them ({@code @ServiceConnection}, Docker Compose), else
 * from {@code spring.data.redis.*} ({@link RedisSettings#connection}). The rules, each as Boot 4's
 * Jedis connection applies it, are in {@code docs/spring-boot.md}; the one easy to get wrong: TLS is
 * on when the URL is {@code rediss://} or SSL is enabled, and only enabled SSL brings a bundle, whose
 * socket factory then serves the Sentinels too.
 *
 * @param topology the server, the Sentinels or the cluster
 * @param username the data nodes' user, null for the default one
 * @param password the data nodes' password, null for none
 * @param ssl whether to connect with TLS
 * @param sslBundle the bundle for TLS, null for the JDK's defaults (only set with {@code ssl})
 * @param clientName {@code CLIENT SETNAME} for each connection, null for none
 * @param timeout the command (read) timeout
 * @param connectTimeout the connect timeout
 */
record RedisConnection(
        Topology topology,
        @Nullable String username,
        @Nullable String password,
        boolean ssl,
        @Nullable SslBundle sslBundle,
        @Nullable String clientName,
        Duration timeout,
        Duration connectTimeout) {

    /** Spring Data Redis' Jedis timeouts when none is set. */
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

    /** One server, a Sentinel-monitored primary, or a cluster. */
    sealed interface Topology permits Standalone, Sentinel, Cluster {}

    /** A single server and the database to select. */
    record Standalone(HostAndPort address, int database) implements Topology {}

    /**
     * The primary the Sentinels know as {@code master}; {@code username} and {@code password} are the
     * Sentinels' own, null for none.
     */
    record Sentinel(
            String master,
            List<HostAndPort> nodes,
            int database,
            @Nullable String username,
            @Nullable String password) implements Topology {
        Sentinel {
            nodes = List.copyOf(nodes);
            username = userOrNull(username);
            password = passwordOrNull(password);
        }
    }

    /** A cluster's seed nodes, and the redirects to follow (null for Jedis' default, 5). */
    record Cluster(List<HostAndPort> nodes, @Nullable Integer maxRedirects) implements Topology {
        Cluster {
            nodes = List.copyOf(nodes);
        }
    }

    /**
     * Applies the rules common to both sources: blank credentials count as none, TLS also for a
     * {@code rediss://} URL in the properties (as Boot checks the URL property even when connection
     * details give the address), and the client name and timeouts, which come from the properties only.
     */
    static RedisConnection of(
            RedisSettings settings,
            Topology topology,
            @Nullable String username,
            @Nullable String password,
            @Nullable SslBundle sslBundle) {
        boolean rediss = hasText(settings.url())
                && RedisSettings.Url.parse(settings.url()).ssl();
        return new RedisConnection(
                topology,
                userOrNull(username),
                passwordOrNull(password),
                sslBundle != null || rediss,
                sslBundle,
                hasText(settings.clientName()) ? settings.clientName() : null,
                settings.timeout() != null ? settings.timeout() : DEFAULT_TIMEOUT,
                settings.connectTimeout() != null ? settings.connectTimeout() : DEFAULT_TIMEOUT);
    }

    /** Spring Data Redis sends a user name only when it is not empty. */
    private static @Nullable String userOrNull(@Nullable String username) {
        return username == null || username.isEmpty() ? null : username;
    }

    /** Spring Data Redis' {@code RedisPassword.of}: a password without text is none. */
    private static @Nullable String passwordOrNull(@Nullable String password) {
        return hasText(password) ? password : null;
    }

    static boolean hasText(@Nullable String s) {
        return s != null && !s.isBlank();
    }
}
