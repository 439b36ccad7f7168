package io.queuekit.tck;

import static java.util.concurrent.TimeUnit.SECONDS;

import io.queuekit.Broadcaster;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

/**
 * A broadcast transport under contract, with no part of the contract yet: the hooks a transport
 * implements, and what one test's broadcasters need. {@link BroadcasterContractTest} adds every
 * part; to run only some, extend this class and declare a {@code @Nested} class per part,
 * extending {@link Part} ({@code @Nested class Publishing extends Part implements PublishingContract {}}).
 */
@Timeout(value = 60, unit = SECONDS)
public abstract class AbstractBroadcasterContractTest {

    /** A new broadcaster on {@code channel} (unique to one test), carrying strings. */
    protected abstract Broadcaster<String> createBroadcaster(String channel);

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
    protected abstract class Part implements BroadcasterContract {

        @Override
        public final Broadcaster<String> newBroadcaster() {
            return newBroadcaster(uniqueName());
        }

        @Override
        public final Broadcaster<String> newBroadcaster(String channel) {
            Broadcaster<String> b = createBroadcaster(channel);
            created.add(b);
            return b;
        }

        @Override
        public final String uniqueName() {
            return Tck.uniqueName(testInfo);
        }

        @Override
        public final IdleSetup idleSetup(String channel) {
            IdleSetup setup = AbstractBroadcasterContractTest.this.idleSetup(channel);
            created.add(setup.broadcaster());
            return setup;
        }
    }
}
