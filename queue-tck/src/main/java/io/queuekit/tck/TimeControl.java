package io.queuekit.tck;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How the contract suite moves a transport's time forward: a virtual clock is advanced at once,
 * real time is waited out. Tests are written to pass either way: they advance past a lease or a
 * delay and then wait for the effect with a generous bound, and they never rely on time standing
 * still except for a virtual clock.
 */
public interface TimeControl {

    /** Lets at least {@code amount} pass on the transport's clock. */
    void advance(Duration amount) throws InterruptedException;

    /** Now on the transport's clock, for scheduling at absolute instants. */
    Instant now();

    /** Whether time stands still between advances. */
    boolean isVirtual();

    /**
     * A virtual clock: {@code now} reads {@code clock}, {@link #advance} calls {@code advancer}
     * (typically {@code manualClock::advance}).
     */
    static TimeControl virtual(Clock clock, Consumer<Duration> advancer) {
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(advancer, "advancer");
        return new TimeControl() {
            @Override
            public void advance(Duration amount) {
                advancer.accept(amount);
            }

            @Override
            public Instant now() {
                return clock.instant();
            }

            @Override
            public boolean isVirtual() {
                return true;
            }

            @Override
            public String toString() {
                return "TimeControl.virtual(" + clock + ")";
            }
        };
    }

    /**
     * Real time, for transports on a server: {@code advance} sleeps, {@code now} is the system
     * clock (the server's clock must agree with it to within a few milliseconds, as it does for a
     * server on the same host or in a local container).
     */
    static TimeControl real() {
        return new TimeControl() {
            @Override
            public void advance(Duration amount) throws InterruptedException {
                Thread.sleep(amount.toMillis(), amount.toNanosPart() % 1_000_000);
            }

            @Override
            public Instant now() {
                return Instant.now();
            }

            @Override
            public boolean isVirtual() {
                return false;
            }

            @Override
            public String toString() {
                return "TimeControl.real()";
            }
        };
    }
}
