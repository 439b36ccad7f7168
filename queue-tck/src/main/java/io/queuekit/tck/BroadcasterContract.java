package io.queuekit.tck;

import io.queuekit.Broadcaster;
import io.queuekit.spi.MessageObservations;
import io.queuekit.tck.BroadcasterContractTest.IdleSetup;

/**
 * What every part of the broadcaster contract is given: broadcasters of the transport under test,
 * each on a channel of its own and closed after the test. A part is an interface extending this
 * one whose tests are default methods; {@link BroadcasterContractTest} runs each by a
 * {@code @Nested} class that extends {@link BroadcasterContractTest.Part} and implements it. A
 * test of a promise only some
 * transports make begins with a JUnit assumption on the broadcaster's
 * {@link io.queuekit.Semantics}, so where the promise is not made it reports as skipped.
 */
interface BroadcasterContract {

    /** A new broadcaster on a channel unique to this test; closed after the test. */
    Broadcaster<String> newBroadcaster();

    /** A new broadcaster on {@code channel}; closed after the test. */
    Broadcaster<String> newBroadcaster(String channel);

    /** A new broadcaster on a channel unique to this test, given {@code observations}; closed after the test. */
    Broadcaster<String> newBroadcaster(MessageObservations observations);

    /** Registers something to close after the test; returns it. */
    <C extends AutoCloseable> C closeLater(C closeable);

    /** A name unique to this test and run. */
    String uniqueName();

    /** The transport's {@link BroadcasterContractTest#idleSetup}; its broadcaster is closed after the test. */
    IdleSetup idleSetup(String channel);
}
