package io.queuekit.tck;

import static io.queuekit.tck.Tck.await;
import static io.queuekit.tck.Tck.messages;
import static io.queuekit.tck.Tck.next;
import static io.queuekit.tck.Tck.record;
import static io.queuekit.tck.Tck.takeAndAck;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.queuekit.Broadcaster;
import io.queuekit.ConsumerGroup;
import io.queuekit.Delivery;
import io.queuekit.GroupInfo;
import io.queuekit.MessageId;
import io.queuekit.Position;
import io.queuekit.QueueClosedException;
import io.queuekit.Semantics;
import io.queuekit.Topic;
import io.queuekit.tck.Tck.Recorder;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link Topic}: every group gets every message published after its start, kept
 * while none of its consumers runs; within a group each message goes to one consumer; groups
 * settle, dead-letter and replay on their own.
 */
interface TopicContract extends BroadcasterContract {

    /** A new topic on a name unique to this test; closed after the test. */
    default Topic<String> newTopic() {
        Broadcaster<String> b = newBroadcaster();
        assertThat(b).as("the transport under test makes topics").isInstanceOf(Topic.class);
        return (Topic<String>) b;
    }

    /** {@code topic.group(name)}, closed after the test. */
    default ConsumerGroup<String> group(Topic<String> topic, String name) {
        return closeLater(topic.group(name));
    }

    @Test
    default void semantics_promiseAtLeastOnceFanOut_keptWhileNoOneListens() {
        Semantics s = newTopic().semantics();
        assertThat(s.fanOut()).isTrue();
        assertThat(s.retainedWithoutConsumers()).isTrue();
        assertThat(s.guarantee()).isEqualTo(Semantics.Guarantee.AT_LEAST_ONCE);
    }

    @Test
    default void everyGroup_receivesEveryMessage_inPublishOrder() throws Exception {
        Topic<String> t = newTopic();
        ConsumerGroup<String> billing = group(t, "billing");
        ConsumerGroup<String> shipping = group(t, "shipping");
        List<String> sent = messages(20);

        sent.forEach(t::publish);

        List<String> toBilling = takeAndAck(billing, 20);
        List<String> toShipping = takeAndAck(shipping, 20);
        assertThat(toBilling).containsExactlyInAnyOrderElementsOf(sent);
        assertThat(toShipping).containsExactlyInAnyOrderElementsOf(sent);
        assertThat(billing.poll()).isNull();
        assertThat(shipping.poll()).isNull();
        assumePublishOrder(t);
        assertThat(toBilling).containsExactlyElementsOf(sent);
        assertThat(toShipping).containsExactlyElementsOf(sent);
    }

    /** Skips the rest of a test where the topic promises no order of all its messages (a sharded topic). */
    private static void assumePublishOrder(Topic<String> t) {
        assumeTrue(
                t.semantics().ordering() == Semantics.Ordering.PUBLISH_ORDER,
                "no order of all messages promised: " + t.semantics());
    }

    @Test
    default void group_keepsWhatIsPublished_whileNoneOfItsConsumersRuns() throws Exception {
        Topic<String> t = newTopic();
        ConsumerGroup<String> late = group(t, "late");
        ConsumerGroup<String> present = group(t, "present");
        List<String> present1 = new CopyOnWriteArrayList<>();
        closeLater(present.consume(d -> present1.add(d.payload())));
        List<String> sent = messages(10);

        sent.forEach(t::publish);
        await().untilAsserted(() -> assertThat(present1).containsExactlyInAnyOrderElementsOf(sent));

        List<String> toLate = takeAndAck(late, 10);
        assertThat(toLate).containsExactlyInAnyOrderElementsOf(sent);
        assumePublishOrder(t);
        assertThat(present1).containsExactlyElementsOf(sent);
        assertThat(toLate).containsExactlyElementsOf(sent);
    }

    @Test
    default void group_keepsWhatIsPublished_acrossObjects() throws Exception {
        Topic<String> t = newTopic();
        group(t, "g").close();
        t.publish("while the group's object is closed");

        ConsumerGroup<String> again = group(t, "g");

        assertThat(next(again).payload()).isEqualTo("while the group's object is closed");
    }

    @Test
    default void newGroup_startsAtTheEnd() throws Exception {
        Topic<String> t = newTopic();
        t.publish("before the group");
        ConsumerGroup<String> g = group(t, "g");

        t.publish("after");

        assertThat(next(g).payload()).isEqualTo("after");
        assertThat(g.poll()).isNull();
    }

    @Test
    default void newGroup_fromTheBeginning_getsWhatIsRetained() throws Exception {
        Topic<String> t = newTopic();
        t.publish("one");
        t.publish("two");

        ConsumerGroup<String> g = closeLater(t.group("g", Position.beginning()));

        List<String> got = takeAndAck(g, 2);
        assertThat(got).containsExactlyInAnyOrder("one", "two");
        assumePublishOrder(t);
        assertThat(got).containsExactly("one", "two");
    }

    @Test
    default void newGroup_afterAnId_getsWhatFollowsIt() throws Exception {
        Topic<String> t = newTopic();
        ConsumerGroup<String> first = group(t, "first");
        MessageId one = first.send("one");
        first.send("two");

        ConsumerGroup<String> g = closeLater(t.group("g", Position.after(one)));

        assertThat(takeAndAck(g, 1)).containsExactly("two");
        assertThat(g.poll()).isNull();
    }

    @Test
    default void newGroup_atATime_getsWhatWasPublishedFromThen() throws Exception {
        Topic<String> t = newTopic();
        t.publish("before");
        Thread.sleep(50); // the topic stamps with its own clock, to the millisecond: let it move
        Instant from = Instant.now();
        Thread.sleep(50);
        t.publish("from then");

        ConsumerGroup<String> g = closeLater(t.group("g", Position.at(from)));

        assertThat(takeAndAck(g, 1)).containsExactly("from then");
        assertThat(g.poll()).isNull();
    }

    @Test
    default void existingGroup_isReturnedAsItStands_whateverPositionIsAsked() throws Exception {
        Topic<String> t = newTopic();
        ConsumerGroup<String> g = group(t, "g");
        t.publish("one");
        assertThat(takeAndAck(g, 1)).containsExactly("one");

        ConsumerGroup<String> same = closeLater(t.group("g", Position.beginning()));

        assertThat(same.poll()).as("the stored group did not move").isNull();
    }

    @Test
    default void replayFrom_handsAckedMessagesOutAgain() throws Exception {
        Topic<String> t = newTopic();
        ConsumerGroup<String> g = group(t, "g");
        ConsumerGroup<String> other = group(t, "other");
        List<String> sent = messages(3);
        sent.forEach(t::publish);
        assertThat(takeAndAck(g, 3)).containsExactlyInAnyOrderElementsOf(sent);

        g.replayFrom(Position.beginning());

        List<String> again = takeAndAck(g, 3);
        List<String> toOther = takeAndAck(other, 3);
        assertThat(again).containsExactlyInAnyOrderElementsOf(sent);
        assertThat(toOther).as("other groups do not move").containsExactlyInAnyOrderElementsOf(sent);
        assertThat(other.poll()).isNull();
        assumePublishOrder(t);
        assertThat(again).containsExactlyElementsOf(sent);
        assertThat(toOther).containsExactlyElementsOf(sent);
    }

    @Test
    default void sameGroup_inTwoObjects_handsEachMessageToOneOfThem() throws Exception {
        Topic<String> t = newTopic();
        ConsumerGroup<String> a = group(t, "g");
        ConsumerGroup<String> b = group(t, "g");
        List<String> got = new CopyOnWriteArrayList<>();
        closeLater(a.consume(d -> got.add(d.payload())));
        closeLater(b.consume(d -> got.add(d.payload())));
        List<String> sent = messages(20);

        sent.forEach(t::publish);

        await().until(() -> got.size() >= sent.size());
        assertThat(a.poll(100, MILLISECONDS)).isNull();
        assertThat(got).as("each message once within the group").containsExactlyInAnyOrderElementsOf(sent);
    }

    @Test
    default void settling_inOneGroup_leavesTheOthersAlone() throws Exception {
        Topic<String> t = newTopic();
        ConsumerGroup<String> a = group(t, "a");
        ConsumerGroup<String> b = group(t, "b");
        t.publish("m");

        next(a).deadLetter("a cannot use it");

        Delivery<String> inB = next(b);
        assertThat(inB.payload()).isEqualTo("m");
        assertThat(inB.attempt()).isEqualTo(1);
        assertThat(inB.ack()).isTrue();
        assertThat(a.deadLetters().size()).isEqualTo(1);
        assertThat(b.deadLetters().size()).isZero();
    }

    @Test
    default void requeuedDeadLetter_comesBackToItsGroupOnly() throws Exception {
        Topic<String> t = newTopic();
        ConsumerGroup<String> a = group(t, "a");
        ConsumerGroup<String> b = group(t, "b");
        a.send("m");
        next(a).deadLetter("later");
        assertThat(takeAndAck(b, 1)).containsExactly("m");

        assertThat(a.deadLetters().requeue(a.deadLetters().list(10).get(0).id()))
                .isTrue();

        assertThat(next(a).payload()).isEqualTo("m");
        assertThat(b.poll(100, MILLISECONDS)).as("b acked it already").isNull();
    }

    @Test
    default void publish_returnsHowManyGroupsItWasStoredFor() {
        Topic<String> t = newTopic();
        assertThat(t.publish("to no group")).isZero();
        group(t, "a");
        assertThat(t.publish("to one")).isEqualTo(1);
        group(t, "b");
        record(t);
        assertThat(t.publish("to three")).isEqualTo(3);
    }

    @Test
    default void groups_listEachGroupWithItsCounts() throws Exception {
        Topic<String> t = newTopic();
        ConsumerGroup<String> a = group(t, "a");
        group(t, "b");
        t.publish("one");
        t.publish("two");
        t.publish("three");
        next(a).ack();
        next(a).deadLetter("no");
        next(a);

        List<GroupInfo> groups = t.groups();

        assertThat(groups).extracting(GroupInfo::name).containsExactly("a", "b");
        assertThat(groups.get(0)).isEqualTo(new GroupInfo("a", 0, 1, 1, 0, false));
        assertThat(groups.get(1)).isEqualTo(new GroupInfo("b", 3, 0, 0, 0, false));
        assertThat(a.info()).isEqualTo(groups.get(0));
        assertThat(t.size()).isGreaterThanOrEqualTo(3);
    }

    @Test
    default void subscription_isAGroupOfItsOwn_deletedWhenItCloses() {
        Topic<String> t = newTopic();
        Recorder r = record(t);
        assertThat(t.groups())
                .singleElement()
                .satisfies(g -> assertThat(g.subscription()).isTrue());

        r.subscription.close();

        assertThat(t.groups()).isEmpty();
    }

    @Test
    default void deleteGroup_removesItAndWhatItHolds_othersStay() throws Exception {
        Topic<String> t = newTopic();
        group(t, "gone");
        ConsumerGroup<String> stays = group(t, "stays");
        t.publish("m");

        assertThat(t.deleteGroup("gone")).isTrue();
        assertThat(t.deleteGroup("gone")).isFalse();

        assertThat(t.groups()).extracting(GroupInfo::name).containsExactly("stays");
        assertThat(next(stays).payload()).isEqualTo("m");
    }

    @Test
    default void badGroupNames_areRefused_byName() {
        Topic<String> t = newTopic();
        for (String bad : List.of("", "has space", "x".repeat(101), "a/b", "~sub")) {
            assertThatThrownBy(() -> t.group(bad))
                    .as("group name %s", bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("group name");
        }
        assertThatThrownBy(() -> t.group(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> t.group("g", null)).isInstanceOf(NullPointerException.class);
        assertThat(t.groups()).isEmpty();
    }

    @Test
    default void closedTopic_refusesGroups() {
        Topic<String> t = newTopic();
        t.close();
        assertThatThrownBy(() -> t.group("g")).isInstanceOf(QueueClosedException.class);
        assertThatThrownBy(t::groups).isInstanceOf(QueueClosedException.class);
    }
}
