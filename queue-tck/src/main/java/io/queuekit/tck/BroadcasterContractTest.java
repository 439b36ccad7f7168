package io.queuekit.tck;

import io.queuekit.Broadcaster;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;

/**
 * The contract of {@link Broadcaster}, every part of it: every broadcast transport passes it by
 * extending this class with a few lines.
 *
 * <pre>{@code
 * class RedisBroadcasterContractTest extends BroadcasterContractTest {
 *     @Override protected Broadcaster<String> createBroadcaster(String channel) {
 *         return RedisBroadcaster.builder(client, channel, Codec.utf8()).build();
 *     }
 * }
 * }</pre>
 *
 * <p>Each part is an interface whose tests are default methods ({@link BroadcasterContract} says
 * how they compose). Each test uses its own channel and closes its broadcasters afterwards.
 * Messages are awaited with a bound, and absences are checked after a message published later has
 * arrived, so the suite takes about as long on a server as in memory; the one exception is the
 * idle test, which must let time pass (three times the client's longest timeout, see
 * {@link #idleSetup(String)}). Promises made by {@link Broadcaster#semantics()} are asserted both
 * ways: a broadcaster that does not retain is shown to drop a message published while no one
 * listens, a fan-out broadcaster is shown to deliver every message to every subscriber; the test
 * of the way a transport does not promise is skipped.
 *
 * <p>{@link Broadcaster#publish} must count every subscription (one per subscribed connection on
 * Redis): with three subscriptions in this process it returns 3.
 */
public abstract class BroadcasterContractTest extends AbstractBroadcasterContractTest {

    @Nested
    @DisplayName("publish reaches the subscribers present, as semantics() promises")
    class Publishing extends Part implements PublishingContract {}

    @Nested
    @DisplayName("publishAll publishes a batch in order, checked in full before any of it goes out")
    class PublishingBatches extends Part implements BatchPublishingContract {}

    @Nested
    @DisplayName("subscribe starts delivery, closing the subscription stops it")
    class Subscribing extends Part implements SubscribingContract {}

    @Nested
    @DisplayName("a subscription outlives its listener's failures and its own idleness")
    class Resilience extends Part implements SubscriptionResilienceContract {}

    @Nested
    @DisplayName("close() ends every subscription and is final")
    class Closing extends Part implements BroadcastClosingContract {}

    @Nested
    @DisplayName("semantics() describes a broadcast")
    class Promises extends Part implements BroadcastSemanticsContract {}

    @Nested
    @DisplayName("bad input gets a clear answer and publishes nothing")
    class BadInput extends Part implements BroadcastBadInputContract {}
}
