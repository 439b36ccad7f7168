package io.queuekit.inmemory.suitecheck;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/** {@link SuiteCheck} for the broken copies of the queues' promises. */
class ContractSuiteCatchesDefectsTest extends SuiteCheck {

    static Stream<Arguments> mutants() {
        return Stream.of(
                Arguments.of(
                        Mutants.EarlyByOneMillisecond.class,
                        List.of(
                                "schedule_isNotDeliveredBeforeItsDelay_thenIsDelivered",
                                "retry_withDelay_isNotRedeliveredBeforeTheDelay_thenWithAttemptRaised",
                                "retry_isNeverEarly_byAFractionOfAMillisecond",
                                "scheduleEach_handsOutEachMessageAtItsOwnDueTime_neverBefore_byDueTimeThenCollectionOrder")),
                Arguments.of(
                        Mutants.LostRedelivery.class,
                        List.of(
                                "unsettled_afterTheLease_isRedeliveredWithAttemptRaised",
                                "ack_afterTheLeaseExpired_returnsFalse_andKeepsTheRedeliveredMessage")),
                Arguments.of(
                        Mutants.DuplicateAtMostOnce.class,
                        List.of(
                                "unsettled_afterTheVisibilityTimeout_isNeverDeliveredAgain",
                                "eightConsumers_tenThousandMessages_eachDeliveredOnce")),
                Arguments.of(
                        Mutants.StaleAckAccepted.class,
                        List.of(
                                "ack_afterTheLeaseExpired_returnsFalse_andKeepsTheRedeliveredMessage",
                                "staleDelivery_cannotSettleItsMessage_requeuedFromTheDeadLetters")),
                Arguments.of(
                        Mutants.FifoBroken.class,
                        List.of(
                                "sendAll_storesInCollectionOrder_andReturnsIdsInThatOrder",
                                "ordering_messagesAreHandedOutAsPromised")),
                Arguments.of(
                        Mutants.PerKeyBroken.class,
                        List.of(
                                "perKey_oneConsumer_getsEachKeysMessagesInSendOrder",
                                "perKey_oneManagedConsumer_handlesEachKeysMessagesInSendOrder")),
                Arguments.of(
                        Mutants.ScheduleAllByLoop.class,
                        List.of(
                                "scheduleAll_withANullElement_throwsNullPointerException_andStoresNothing",
                                "scheduleAll_ofAPayloadTheCodecCannotEncode_throwsSerializationException_andStoresNothing",
                                "scheduleAll_refusesWhatScheduleRefuses_evenForAnEmptyBatch_storingNothing")),
                Arguments.of(
                        Mutants.ScheduleEachByLoop.class,
                        List.of(
                                "scheduleEach_withANullElement_throwsNullPointerException_andStoresNothing",
                                "scheduleEach_withADueTimeBeyondTheMaximum_throwsIllegalArgumentException_andStoresNothing",
                                "scheduleEach_ofAPayloadTheCodecCannotEncode_throwsSerializationException_andStoresNothing",
                                "scheduleEach_ofAPayloadAboveTheSizeLimit_throwsIllegalArgumentException_andStoresNothing",
                                "scheduleEach_afterClose_throwsQueueClosedException_evenForAnEmptyBatch",
                                "delayQueueCall_isRefusedClearly_andChangesNothing")),
                Arguments.of(
                        Mutants.HeadersLostOnRedelivery.class,
                        List.of(
                                "retry_keepsTheHeaders_onEveryAttempt",
                                "redelivery_afterTheLease_keepsTheHeaders",
                                "consume_handlerSeesTheHeaders_onEveryAttempt")),
                Arguments.of(Mutants.SendAllObservedPerMessage.class, List.of("sendAll_isOneSend_ofEveryMessage")),
                Arguments.of(
                        Mutants.IgnoresPause.class,
                        List.of(
                                "paused_handsOutNothing_keepsWhatIsSent_andHandsItAllOutInOrderAfterResume",
                                "inFlight_settlesAsUsualWhilePaused",
                                "aLeaseThatRunsOutWhilePaused_redeliversOnlyAfterResume",
                                "take_waitingWhilePaused_getsTheMessageAfterResume",
                                "consume_waitsWhilePaused_andHandlesEverythingAfterResume_inOrder",
                                "pauseAndResume_areIdempotent")));
    }
}
