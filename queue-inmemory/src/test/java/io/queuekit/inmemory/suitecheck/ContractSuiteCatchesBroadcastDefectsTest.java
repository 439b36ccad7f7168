package io.queuekit.inmemory.suitecheck;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * {@link SuiteCheck} for the broken copies of the broadcaster's promises: a class of their own, as
 * the suite waits longest against a broadcaster that drops what it publishes.
 */
class ContractSuiteCatchesBroadcastDefectsTest extends SuiteCheck {

    static Stream<Arguments> mutants() {
        return Stream.of(
                Arguments.of(Mutants.DroppedBroadcast.class, List.of("publish_reachesEverySubscriber_inPublishOrder")),
                Arguments.of(
                        Mutants.PublishAllByLoop.class,
                        List.of("publishAll_withANullElement_throwsNullPointerException_andPublishesNothing")),
                Arguments.of(
                        Mutants.HeadersNotPublished.class,
                        List.of(
                                "publish_withHeaders_reachesAHeadersListener_withThemExactly",
                                "publish_runsInsideTheObservations_andCarriesTheHeadersTheyAdd_toListenersInsideThem")));
    }
}
