package io.queuekit.bench;

/** A publish/subscribe channel in a benchmark: ours or plain Jedis. */
interface BroadcastUnderTest extends AutoCloseable {

    /** What a subscriber does with a message: receiver index and body. */
    @FunctionalInterface
    interface Sink {
        void accept(int receiver, String body);
    }

    /** Subscribes {@code count} receivers and returns once every subscription is confirmed. */
    void subscribe(int count, Sink sink) throws InterruptedException;

    void publish(String body);

    @Override
    void close();
}
