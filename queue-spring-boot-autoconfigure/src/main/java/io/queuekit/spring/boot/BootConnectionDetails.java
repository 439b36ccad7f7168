package io.queuekit.spring.boot;

import io.queuekit.spring.boot.RedisConnection.Topology;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import redis.clients.jedis.HostAndPort;

/**
 * Spring Boot's {@link DataRedisConnectionDetails} (what {@code @ServiceConnection} and Docker Compose
 * register, and what Boot makes of {@code spring.data.redis.*} when Spring Data Redis is there) as a
 * {@link RedisConnection}, with Boot's precedence: Sentinel, then cluster, then master/replica (which
 * Jedis does not support), then the single server. Timeouts, the client name, the cluster's
 * redirects and a {@code rediss://} URL still come from the properties, as in Boot. Loaded only when
 * spring-boot-data-redis is on the classpath.
 */
final class BootConnectionDetails {
    private static final String SOURCE = "the application's DataRedisConnectionDetails";

    private BootConnectionDetails() {}

    static RedisConnection connection(DataRedisConnectionDetails details, RedisSettings settings) {
        return RedisConnection.of(
                settings,
                topology(details, settings),
                details.getUsername(),
                details.getPassword(),
                details.getSslBundle());
    }

    private static Topology topology(DataRedisConnectionDetails details, RedisSettings settings) {
        DataRedisConnectionDetails.Sentinel sentinel = details.getSentinel();
        if (sentinel != null) {
            return new RedisConnection.Sentinel(
                    required(sentinel.getMaster(), "a Sentinel without a master name"),
                    addresses(sentinel.getNodes(), "Sentinel"),
                    sentinel.getDatabase(),
                    sentinel.getUsername(),
                    sentinel.getPassword());
        }
        DataRedisConnectionDetails.Cluster cluster = details.getCluster();
        if (cluster != null) {
            return new RedisConnection.Cluster(addresses(cluster.getNodes(), "cluster"), settings.maxRedirects());
        }
        if (details.getMasterReplica() != null) {
            throw RedisSettings.masterReplicaUnsupported(SOURCE);
        }
        DataRedisConnectionDetails.Standalone standalone = details.getStandalone();
        if (standalone == null) {
            throw invalid("neither a server, Sentinels nor a cluster");
        }
        return new RedisConnection.Standalone(
                new HostAndPort(required(standalone.getHost(), "a server without a host"), standalone.getPort()),
                standalone.getDatabase());
    }

    private static List<HostAndPort> addresses(@Nullable List<DataRedisConnectionDetails.Node> nodes, String what) {
        if (nodes == null || nodes.isEmpty()) {
            throw invalid("no " + what + " nodes");
        }
        return nodes.stream().map(n -> new HostAndPort(n.host(), n.port())).toList();
    }

    private static String required(@Nullable String value, String problem) {
        if (value == null || value.isEmpty()) {
            throw invalid(problem);
        }
        return value;
    }

    private static QueueConfigurationException invalid(String problem) {
        return new QueueConfigurationException(
                SOURCE + " give " + problem,
                "Fix the DataRedisConnectionDetails bean, or remove it to connect by spring.data.redis.*.");
    }
}
