package io.queuekit.spring.boot;

import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * The application's own {@code spring.data.redis.*} settings, the ones Spring Data Redis reads,
 * bound here without Spring Data Redis on the classpath. Unset values are null.
 */
record RedisSettings(
        String url,
        String host,
        Integer port,
        String username,
        String password,
        Integer database,
        String clientName,
        Duration timeout,
        Duration connectTimeout,
        Ssl ssl,
        Sentinel sentinel,
        Cluster cluster,
        Jedis jedis) {

    record Ssl(Boolean enabled, String bundle) {}

    record Sentinel(String master, List<String> nodes, String username, String password) {}

    record Cluster(List<String> nodes, Integer maxRedirects) {}

    record Jedis(Pool pool) {}

    record Pool(Integer maxActive, Integer maxIdle, Integer minIdle, Duration maxWait) {}

    static RedisSettings of(Environment environment) {
        return Binder.get(environment)
                .bind("spring.data.redis", RedisSettings.class)
                .orElse(new RedisSettings(
                        null, null, null, null, null, null, null, null, null, null, null, null, null));
    }

    boolean sentinelConfigured() {
        return sentinel != null && sentinel.master() != null;
    }

    boolean clusterConfigured() {
        return cluster != null && cluster.nodes() != null && !cluster.nodes().isEmpty();
    }

    boolean sslEnabled() {
        return ssl != null && (Boolean.TRUE.equals(ssl.enabled()) || ssl.bundle() != null);
    }

    Pool pool() {
        return jedis == null || jedis.pool() == null ? new Pool(null, null, null, null) : jedis.pool();
    }
}
