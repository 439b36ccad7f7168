package io.queuekit.tck;

import io.queuekit.Broadcaster;
import io.queuekit.Topic;
import io.queuekit.spi.MessageObservations;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;

/**
 * The contract of {@link Topic}: the whole {@link BroadcasterContractTest} (a subscription is a
 * group of its own) and the groups' own part. A transport's groups, each a message queue, pass
 * {@link ConsumerGroupContractTest} as well.
 *
 * <pre>{@code
 * class RedisStreamTopicContractTest extends TopicContractTest {
 *     @Override protected Topic<String> createTopic(String name, MessageObservations observations) {
 *         return RedisStreamTopic.builder(client, name, Codec.utf8()).observations(observations).build();
 *     }
 * }
 * }</pre>
 */
public abstract class TopicContractTest extends BroadcasterContractTest {

    /** A new topic named {@code name} (unique to one test), carrying strings, with {@code observations}. */
    protected abstract Topic<String> createTopic(String name, MessageObservations observations);

    @Override
    protected final Broadcaster<String> createBroadcaster(String channel, MessageObservations observations) {
        return createTopic(channel, observations);
    }

    @Nested
    @DisplayName("every group gets every message, kept while none of its consumers runs, settled on its own")
    class Groups extends Part implements TopicContract {}
}
