package io.queuekit.tck;

import io.queuekit.DelayQueue;
import java.time.Duration;

/**
 * What every part of the delay-queue contract is given: the queue contract's, and delay queues.
 * {@link DelayQueueContractTest} runs every such part.
 */
public interface DelayQueueContract extends QueueContract {

    /** A new delay queue with the usual settings. */
    default DelayQueue<String> newDelayQueue() {
        return (DelayQueue<String>) newQueue();
    }

    /** The delay most scheduling tests use: the visibility timeout (1 s on real time). */
    default Duration delay() {
        return visibilityTimeout();
    }
}
