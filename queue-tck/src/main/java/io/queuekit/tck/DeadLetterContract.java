package io.queuekit.tck;

import static io.queuekit.tck.Tck.GENEROUS_MS;
import static io.queuekit.tck.Tck.assumeOrdered;
import static io.queuekit.tck.Tck.next;
import static io.queuekit.tck.Tck.payloads;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.DeadLetter;
import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link io.queuekit.MessageQueue#deadLetters()}: dead letters keep the failed
 * messages with their reasons and attempts, oldest first, for listing, requeueing and purging, up to
 * the retention.
 */
interface DeadLetterContract extends QueueContract {

    @Test
    default void deadLetter_listsIdPayloadReasonAndAttempts() throws Exception {
        MessageQueue<String> q = newQueue();
        MessageId id = q.send("bad");
        next(q).retry(Duration.ZERO);
        Delivery<String> second = next(q);

        assertThat(second.deadLetter("cannot parse")).isTrue();

        assertThat(q.deadLetters().size()).isEqualTo(1);
        List<DeadLetter<String>> list = q.deadLetters().list(10);
        assertThat(list).hasSize(1);
        DeadLetter<String> dl = list.get(0);
        assertThat(dl.id()).isEqualTo(id);
        assertThat(dl.payload()).isEqualTo("bad");
        assertThat(dl.reason()).isEqualTo("cannot parse");
        assertThat(dl.attempts()).isEqualTo(2);
        assertThat(dl.deadAt()).isNotNull();
        assertThat(q.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));
        assertThat(second.ack()).as("a dead letter cannot be acked").isFalse();
        assertThat(q.poll()).isNull();
    }

    @Test
    default void deadLetter_withNullReason_recordsAnEmptyReason() throws Exception {
        MessageQueue<String> q = newQueue();
        q.send("x");
        assertThat(next(q).deadLetter(null)).isTrue();
        assertThat(q.deadLetters().list(1).get(0).reason()).isEmpty();
    }

    @Test
    default void list_returnsAtMostLimit_oldestFirst_andRefusesNonPositiveLimits() throws Exception {
        MessageQueue<String> q = newQueue();
        q.sendAll(List.of("a", "b", "c"));
        for (int i = 0; i < 3; i++) {
            next(q).deadLetter("r" + i);
        }

        List<DeadLetter<String>> two = q.deadLetters().list(2);

        assertThat(two).extracting(DeadLetter::reason).containsExactly("r0", "r1");
        assertThatThrownBy(() -> q.deadLetters().list(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    default void list_isInTheOrderTheyDied_evenWithinOneMillisecond() throws Exception {
        MessageQueue<String> q = newQueue();
        q.sendAll(IntStream.range(0, 12).mapToObj(i -> "m" + i).collect(Collectors.toList()));
        List<Delivery<String>> got = new ArrayList<>();
        while (got.size() < 12) {
            got.addAll(q.pollBatch(12 - got.size(), GENEROUS_MS, MILLISECONDS));
        }
        List<String> died = new ArrayList<>();

        for (int i = got.size() - 1; i >= 0; i--) { // against id order, as fast as it goes
            got.get(i).deadLetter("no");
            died.add(got.get(i).payload());
        }

        assertThat(q.deadLetters().list(20)).extracting(DeadLetter::payload).containsExactlyElementsOf(died);
    }

    @Test
    default void requeue_deliversTheMessageAgain_asAFirstAttempt() throws Exception {
        MessageQueue<String> q = newQueue();
        MessageId id = q.send("x");
        next(q).retry(Duration.ZERO);
        next(q).deadLetter("failed twice");

        assertThat(q.deadLetters().requeue(id)).isTrue();

        assertThat(q.deadLetters().size()).isZero();
        Delivery<String> d = next(q);
        assertThat(d.id()).isEqualTo(id);
        assertThat(d.payload()).isEqualTo("x");
        assertThat(d.attempt()).isEqualTo(1);
        assertThat(q.deadLetters().requeue(id)).as("no longer a dead letter").isFalse();
    }

    @Test
    default void requeue_unknownId_returnsFalse() {
        MessageQueue<String> q = newQueue();
        assertThat(q.deadLetters().requeue(MessageId.of("no-such-message"))).isFalse();
        assertThatThrownBy(() -> q.deadLetters().requeue(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    default void requeueAll_requeuesEveryDeadLetter_oldestFirst() throws Exception {
        MessageQueue<String> q = newQueue();
        q.sendAll(List.of("a", "b", "c"));
        List<String> buried = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Delivery<String> d = next(q);
            d.deadLetter("no");
            buried.add(d.payload());
        }

        assertThat(q.deadLetters().requeueAll()).isEqualTo(3);

        assertThat(q.deadLetters().size()).isZero();
        List<Delivery<String>> again = List.of(next(q), next(q), next(q));
        assertThat(again).extracting(Delivery::attempt).containsOnly(1);
        assertThat(payloads(again)).containsExactlyInAnyOrderElementsOf(buried);
        assertThat(q.deadLetters().requeueAll()).isZero();
        assumeOrdered(q);
        assertThat(payloads(again)).containsExactlyElementsOf(buried);
    }

    @Test
    default void purge_deletesEveryDeadLetter() throws Exception {
        MessageQueue<String> q = newQueue();
        q.sendAll(List.of("a", "b", "ready"));
        next(q).deadLetter("no");
        next(q).deadLetter("no");

        assertThat(q.deadLetters().purge()).isEqualTo(2);

        assertThat(q.deadLetters().size()).isZero();
        assertThat(q.deadLetters().list(10)).isEmpty();
        assertThat(q.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
        assertThat(q.deadLetters().purge()).isZero();
    }

    @Test
    default void find_showsOneDeadLetter_asListed_andNothingForAnIdThatIsNotOne() throws Exception {
        MessageQueue<String> q = newQueue();
        List<MessageId> sent = q.sendAll(List.of("bad", "fine"));
        Delivery<String> d = next(q);
        MessageId dead = d.id();
        d.deadLetter("cannot parse");
        MessageId waiting = sent.get(sent.get(0).equals(dead) ? 1 : 0);

        DeadLetter<String> found = q.deadLetters().find(dead).orElseThrow();

        assertThat(found).isEqualTo(q.deadLetters().list(1).get(0));
        assertThat(found.payload()).isEqualTo(d.payload());
        assertThat(found.reason()).isEqualTo("cannot parse");
        assertThat(found.attempts()).isEqualTo(1);
        assertThat(q.deadLetters().find(waiting))
                .as("a waiting message is not a dead letter")
                .isEmpty();
        assertThat(q.deadLetters().find(MessageId.of("no-such-message"))).isEmpty();
        assertThatThrownBy(() -> q.deadLetters().find(null)).isInstanceOf(NullPointerException.class);
        assertThat(q.stats()).as("finding moves nothing").isEqualTo(new QueueStats(1, 0, 0, 1));
    }

    @Test
    default void purgeOne_deletesThatDeadLetterAlone() throws Exception {
        MessageQueue<String> q = newQueue();
        List<MessageId> sent = q.sendAll(List.of("a", "b", "c"));
        Delivery<String> one = next(q);
        Delivery<String> other = next(q);
        one.deadLetter("no");
        other.deadLetter("no");
        MessageId first = one.id();
        MessageId second = other.id();
        MessageId waiting = sent.stream()
                .filter(id -> !id.equals(first) && !id.equals(second))
                .findFirst()
                .orElseThrow();

        assertThat(q.deadLetters().purge(first)).isTrue();

        assertThat(q.deadLetters().list(10)).extracting(DeadLetter::id).containsExactly(second);
        assertThat(q.deadLetters().purge(first)).as("gone already").isFalse();
        assertThat(q.deadLetters().purge(waiting)).as("not a dead letter").isFalse();
        assertThat(q.deadLetters().requeue(first)).as("its body went with it").isFalse();
        assertThat(q.stats()).isEqualTo(new QueueStats(1, 0, 0, 1));
        assertThatThrownBy(() -> q.deadLetters().purge(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    default void retention_dropsTheOldestDeadLetters() throws Exception {
        MessageQueue<String> q = newQueue(config().withDeadLetterRetention(3));
        q.sendAll(List.of("m1", "m2", "m3", "m4", "m5"));
        List<String> order = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Delivery<String> d = next(q);
            order.add(d.payload());
            d.deadLetter("no");
        }

        assertThat(q.deadLetters().size()).isEqualTo(3);
        assertThat(q.deadLetters().list(10))
                .extracting(DeadLetter::payload)
                .containsExactlyElementsOf(order.subList(2, 5));
    }

    // ---- a retention of 0 keeps no dead letters, on every transport

    @Test
    default void retention_ofZero_keepsNoDeadLetters() throws Exception {
        MessageQueue<String> q = newQueue(config().withDeadLetterRetention(0));
        q.send("x");

        assertThat(next(q).deadLetter("not kept")).isTrue();
        assertThat(q.deadLetters().size()).isZero();
        assertThat(q.deadLetters().list(10)).isEmpty();
        assertThat(q.stats().total()).isZero();
    }
}
