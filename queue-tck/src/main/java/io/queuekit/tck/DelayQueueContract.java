package io.queuekit.tck;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.queuekit.DelayQueue;
import io.queuekit.MessageQueue;
import java.time.Duration;

/**
 * What every part of the delay-queue contract is given: the queue contract's, and delay queues.
 * {@link DelayQueueContractTest} runs every such part.
 */
interface DelayQueueContract extends QueueContract {

    /**
     * A new delay queue with the usual settings; skips the test (by a JUnit assumption) if the
     * transport's queues do not promise delays.
     */
    default DelayQueue<String> newDelayQueue() {
        MessageQueue<String> q = newQueue();
        assumeTrue(
                q instanceof DelayQueue<String> && q.semantics().delays(),
                "the transport promises no delays: " + q.semantics());
        return (DelayQueue<String>) q;
    }

    /** The delay most scheduling tests use: the visibility timeout (1 s on real time). */
    default Duration delay() {
        return visibilityTimeout();
    }
}
