package io.queuekit.spring.boot;

import redis.clients.jedis.DefaultJedisClientConfig;

/**
 * Changes the client configuration of the data nodes before the starter builds its Jedis client
 * from it, after the {@code spring.data.redis.*} settings are applied: for what they do not cover
 * (a credentials provider, a RESP protocol version). Every bean of this type is called, in
 * {@code @Order}; not called when the application has its own {@code UnifiedJedis} bean.
 */
@FunctionalInterface
public interface RedisClientCustomizer {
    /**
     * Customizes the data nodes' client configuration.
     *
     * @param config the builder the client's configuration is built from
     */
    void customize(DefaultJedisClientConfig.Builder config);
}
