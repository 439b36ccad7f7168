package io.queuekit.redis.pubsub;

import io.queuekit.Codec;
import io.queuekit.SerializationException;
import java.nio.charset.StandardCharsets;

/** UTF-8, except that it cannot decode a message that begins with "bad": for decode failures. */
final class PickyCodec implements Codec<String> {
    @Override
    public byte[] encode(String payload) {
        return payload.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String decode(byte[] bytes) {
        String s = new String(bytes, StandardCharsets.UTF_8);
        if (s.startsWith("bad")) {
            throw new SerializationException("not a message: " + s, null);
        }
        return s;
    }
}
