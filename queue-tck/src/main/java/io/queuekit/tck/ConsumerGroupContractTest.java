package io.queuekit.tck;

import io.queuekit.ConsumerGroup;
import io.queuekit.MessageQueue;
import io.queuekit.Topic;

/**
 * The whole {@link MessageQueueContractTest}, run against one group of a new topic: within a group a
 * topic is a message queue, with leases, retries, dead letters and pause. Each test's queue is the
 * group named as the test's queue, on a topic of its own whose other groups never show.
 *
 * <pre>{@code
 * class RedisStreamGroupContractTest extends ConsumerGroupContractTest {
 *     @Override protected Topic<String> createTopic(String name, QueueConfig config) {
 *         return RedisStreamTopic.builder(client, name, config.codec())
 *                 .visibilityTimeout(config.visibilityTimeout()).maxAttempts(config.maxAttempts()) ... .build();
 *     }
 *     @Override protected TimeControl time() { return TimeControl.real(); }
 * }
 * }</pre>
 */
public abstract class ConsumerGroupContractTest extends MessageQueueContractTest {

    /**
     * A new topic named {@code name} whose groups have exactly the settings in {@code config} (the
     * visibility timeout, attempts, dead letters, metrics, observations and codec of a queue).
     */
    protected abstract Topic<String> createTopic(String name, QueueConfig config);

    @Override
    protected final MessageQueue<String> createQueue(String name, QueueConfig config) {
        Topic<String> topic = closeLater(createTopic("topic-" + name, config));
        ConsumerGroup<String> group = topic.group(name);
        return group;
    }
}
