package io.queuekit.redis.pubsub;

import java.util.Locale;
import java.util.UUID;

/** Channel names for tests. */
final class Channels {
    private Channels() {}

    /** A channel name no other test uses, even on a shared server. */
    static String unique(String what) {
        return (what + "-" + UUID.randomUUID().toString().substring(0, 8)).toLowerCase(Locale.ROOT);
    }
}
