/**
 * Real Redis servers for tests, demos and benchmarks. {@link io.queuekit.testing.RedisServer} finds or starts one
 * (an external server from {@code REDIS_URL}, {@code redis-server} on {@code PATH}, a Testcontainers
 * container, or the binary shipped in the embedded-redis jar), gives its address, and for servers it
 * started offers kill, stop and restart for fault tests.
 */
package io.queuekit.testing;
