package io.queuekit.inmemory.suitecheck;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/** {@link SuiteCheck} for the broken copies of the topic's promises: its groups keep and settle on their own. */
class ContractSuiteCatchesTopicDefectsTest extends SuiteCheck {

    static Stream<Arguments> mutants() {
        return Stream.of(
                Arguments.of(
                        Mutants.LateGroupMissesMessages.class,
                        List.of(
                                "group_keepsWhatIsPublished_whileNoneOfItsConsumersRuns",
                                "group_keepsWhatIsPublished_acrossObjects",
                                "publish_withNoSubscriber_isKept_ifRetained",
                                "lateSubscriber_receivesEarlierMessages_ifRetained")),
                Arguments.of(
                        Mutants.AcksSharedAcrossGroups.class,
                        List.of(
                                "everyGroup_receivesEveryMessage_inPublishOrder",
                                "replayFrom_handsAckedMessagesOutAgain",
                                "requeuedDeadLetter_comesBackToItsGroupOnly")),
                Arguments.of(
                        Mutants.PublishCountsNoSubscriptions.class,
                        List.of(
                                "publish_returnsHowManyGroupsItWasStoredFor",
                                "publish_returnsTheNumberOfSubscribers")));
    }
}
