package io.queuekit.tck;

import static java.util.concurrent.TimeUnit.SECONDS;

import io.queuekit.Broadcaster;
import io.queuekit.spi.MessageObservations;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/**
 * The contract of {@link Broadcaster}, every part of it: every broadcast transport passes it by
 * extending this class with a few lines.
 *
 * <pre>{@code
 * class RedisBroadcasterContractTest extends BroadcasterContractTest {
 *     @Override protected Broadcaster<String> createBroadcaster(String channel, MessageObservations observations) {
 *         return RedisBroadcaster.builder(client, channel, Codec.utf8()).observations(observations).build();
 *     }
 * }
 * }</pre>
 *
 * <p>{@link Broadcaster#publish} must count every subscription (one per subscribed connection on
 * Redis): with three subscriptions in this process it returns 3. The one test that must let time
 * pass is the idle test, three times the client's longest timeout (see {@link #idleSetup(String)}).
 * How the suite is built: {@code docs/contract-suite.md}.
 */
@Timeout(value = 60, unit = SECONDS)
public abstract class BroadcasterContractTest {

    /**
     * A new broadcaster on {@code channel} (unique to one test), carrying strings, built with
     * {@code observations} (its builder's {@code observations(...)}): {@link MessageObservations#NONE}
     * unless the test checks observations, which then fails if the broadcaster never shows them a
     * publish.
     */
    protected abstract Broadcaster<String> createBroadcaster(String channel, MessageObservations observations);

    /**
     * For {@code healthyIdleSubscription_reportsNoGap_overLongerThanEveryClientTimeout}: a new
     * broadcaster on {@code channel} whose connections use the shortest timeouts its client
     * allows (for Redis: a client whose socket, blocking-socket and connection timeouts are all
     * {@link IdleSetup#longestClientTimeout()}), with a way to read how many gaps its
     * subscriptions have reported. The default skips that test: a transport with nothing to
     * disconnect has no notion of a gap.
     */
    protected IdleSetup idleSetup(String channel) {
        return Assumptions.abort("this transport reports no gaps in what it delivers: nothing to disconnect");
    }

    /**
     * A broadcaster whose client times out after at most {@code longestClientTimeout}, and the
     * number of gaps (lost and re-established subscriptions) it has reported so far.
     */
    public record IdleSetup(Broadcaster<String> broadcaster, Duration longestClientTimeout, LongSupplier gapsReported) {
        public IdleSetup {
            Objects.requireNonNull(broadcaster, "broadcaster");
            Objects.requireNonNull(gapsReported, "gapsReported");
            if (longestClientTimeout == null || longestClientTimeout.isNegative() || longestClientTimeout.isZero()) {
                throw new IllegalArgumentException("longestClientTimeout must be positive: " + longestClientTimeout);
            }
        }
    }

    private final List<AutoCloseable> created = new CopyOnWriteArrayList<>();
    private TestInfo testInfo;

    @BeforeEach
    void rememberTest(TestInfo info) {
        this.testInfo = info;
    }

    @AfterEach
    void closeBroadcasters() throws Exception {
        for (AutoCloseable c : created) {
            c.close();
        }
        created.clear();
    }

    /**
     * Where a part of the contract reaches the transport and this test's broadcasters: a
     * {@code @Nested} class extends it and implements the part's interface.
     */
    abstract class Part implements BroadcasterContract {

        @Override
        public final Broadcaster<String> newBroadcaster() {
            return newBroadcaster(uniqueName());
        }

        @Override
        public final Broadcaster<String> newBroadcaster(String channel) {
            return closeLater(createBroadcaster(channel, MessageObservations.NONE));
        }

        @Override
        public final Broadcaster<String> newBroadcaster(MessageObservations observations) {
            return closeLater(createBroadcaster(uniqueName(), observations));
        }

        @Override
        public final <C extends AutoCloseable> C closeLater(C closeable) {
            created.add(closeable);
            return closeable;
        }

        @Override
        public final String uniqueName() {
            return Tck.uniqueName(testInfo);
        }

        @Override
        public final IdleSetup idleSetup(String channel) {
            IdleSetup setup = BroadcasterContractTest.this.idleSetup(channel);
            created.add(setup.broadcaster());
            return setup;
        }
    }

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

    @Nested
    @DisplayName("a message published with headers reaches a headers listener with them, exactly")
    class BroadcastHeaders extends Part implements BroadcastHeadersContract {}

    @Nested
    @DisplayName("observations see every publish, add their headers, and wrap every listener's handling")
    class BroadcastObservations extends Part implements BroadcastObservationsContract {}
}
