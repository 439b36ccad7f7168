/**
 * Test fixtures for code that runs against Redis; used at test scope, never on a runtime classpath.
 * <ul>
 *   <li>{@link io.queuekit.testing.RedisServer} finds or starts a real Redis (an external server from
 *       {@code REDIS_URL}, {@code redis-server} on {@code PATH}, a Testcontainers container, or the binary
 *       shipped in the embedded-redis jar), gives its address, and for servers it started offers kill, stop
 *       and restart for fault tests.</li>
 *   <li>{@link io.queuekit.testing.RedisClients} builds Jedis clients with the settings
 *       {@code docs/reliability-and-security.md} recommends: bounded connect, command and blocking-read timeouts, a bounded wait for a pooled
 *       connection.</li>
 *   <li>{@link io.queuekit.testing.RedisServerTest} gives a JUnit 5 test class a server and such a client
 *       as parameters, and closes them after the class.</li>
 *   <li>{@link io.queuekit.testing.RedisCluster} and {@link io.queuekit.testing.RedisSentinelGroup} start a
 *       Redis Cluster and a Sentinel deployment of such servers, with crashes and failovers on demand,
 *       and give a cluster or Sentinel client of them.</li>
 *   <li>{@link io.queuekit.testing.TlsCertificates} makes a CA and a server certificate with openssl for
 *       servers with a TLS port.</li>
 * </ul>
 */
package io.queuekit.testing;
