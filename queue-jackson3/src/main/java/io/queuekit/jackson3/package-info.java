/**
 * A JSON {@link io.queuekit.Codec} on Jackson 3 ({@code tools.jackson}), the Jackson of Spring
 * Boot 4: {@link io.queuekit.jackson3.Jackson3Codec}, which decodes only into the type it was made
 * for and refuses class names in bodies. It works with every queuekit transport; the Jackson 2
 * twin is {@code io.queuekit.redis.JacksonCodec} in {@code queue-redis-core}.
 */
package io.queuekit.jackson3;
