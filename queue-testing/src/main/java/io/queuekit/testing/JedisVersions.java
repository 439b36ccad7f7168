package io.queuekit.testing;

import java.lang.reflect.InvocationTargetException;
import java.net.URI;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * What differs between the Jedis generations this module runs on, for what an application's tests use
 * ({@link RedisServer}, {@link RedisServerTest}, {@link RedisClients#pooled}): Jedis 8 (and 7.4) has
 * {@code RedisClient} and negotiates the protocol unless told not to; Jedis 7.0 has {@code JedisPooled}
 * and never negotiates. The same as {@code io.queuekit.redis.internal.JedisClient} in queue-redis-core,
 * which this module cannot depend on (that module's tests depend on this one). Easy to get wrong: no code
 * outside {@link Newest} names {@code RedisClient}, so that Jedis 7.0 never has to load it.
 */
final class JedisVersions {
    private static final String REDIS_CLIENT = "redis.clients.jedis.RedisClient";
    private static final boolean NEWEST = present(REDIS_CLIENT);
    private static final boolean NEGOTIATES_PROTOCOL = negotiatesProtocol();

    private JedisVersions() {}

    /** Speaks RESP2 without a {@code HELLO}, as Jedis 7 always does and Jedis 8 does when told so. */
    static DefaultJedisClientConfig.Builder withoutProtocolNegotiation(DefaultJedisClientConfig.Builder config) {
        return NEGOTIATES_PROTOCOL ? config.autoNegotiateProtocol(false) : config;
    }

    /** Whether {@code uri} names a database ({@code redis://host:port/2}); Jedis 7.0 has no {@code hasDbIndex}. */
    static boolean hasDbIndex(URI uri) {
        String path = uri.getPath();
        return path != null && path.length() > 1;
    }

    /** A {@code RedisClient}, or a {@code JedisPooled} on a Jedis without it. */
    static UnifiedJedis pooled(HostAndPort address, JedisClientConfig config, ConnectionPoolConfig pool) {
        if (NEWEST) {
            return Newest.pooled(address, config, pool);
        }
        try {
            return Class.forName("redis.clients.jedis.JedisPooled")
                    .asSubclass(UnifiedJedis.class)
                    .getConstructor(
                            HostAndPort.class,
                            JedisClientConfig.class,
                            org.apache.commons.pool2.impl.GenericObjectPoolConfig.class)
                    .newInstance(address, config, pool);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw new JedisException("could not make a JedisPooled: " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("this Jedis has neither RedisClient nor JedisPooled", e);
        }
    }

    /** Whether {@code type}, a parameter's type, is Jedis 8's {@code RedisClient}, read without loading it. */
    static boolean isRedisClient(Class<?> type) {
        return type.getName().equals(REDIS_CLIENT);
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, JedisVersions.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static boolean negotiatesProtocol() {
        try {
            DefaultJedisClientConfig.Builder.class.getMethod("autoNegotiateProtocol", boolean.class);
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /** Loaded only on a Jedis that has {@code RedisClient}. */
    private static final class Newest {
        private Newest() {}

        static UnifiedJedis pooled(HostAndPort address, JedisClientConfig config, ConnectionPoolConfig pool) {
            return RedisClient.builder()
                    .hostAndPort(address)
                    .clientConfig(config)
                    .poolConfig(pool)
                    .build();
        }
    }
}
