package io.queuekit.tck;

import static io.queuekit.tck.Tck.assumeOrdered;
import static io.queuekit.tck.Tck.next;
import static io.queuekit.tck.Tck.payloads;
import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link io.queuekit.MessageQueue#send} and {@link io.queuekit.MessageQueue#sendAll}:
 * what is sent is stored for delivery, a batch in its order. Refusals are in {@link BadInputContract}.
 */
interface SendingContract extends QueueContract {

    @Test
    default void send_thenPoll_returnsThePayloadAsFirstAttempt() throws Exception {
        MessageQueue<String> q = newQueue();
        MessageId id = q.send("hello");

        Delivery<String> d = next(q);

        assertThat(d.id()).isEqualTo(id);
        assertThat(d.payload()).isEqualTo("hello");
        assertThat(d.attempt()).isEqualTo(1);
        assertThat(d.enqueuedAt()).isNotNull();
        assertThat(d.ack()).isTrue();
    }

    @Test
    default void sendAll_storesInCollectionOrder_andReturnsIdsInThatOrder() throws Exception {
        MessageQueue<String> q = newQueue();
        List<MessageId> ids = q.sendAll(List.of("a", "b", "c"));

        assertThat(ids).hasSize(3).doesNotHaveDuplicates();
        List<Delivery<String>> got = List.of(next(q), next(q), next(q));
        assertThat(payloads(got)).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(got).extracting(Delivery::id).containsExactlyInAnyOrderElementsOf(ids);
        assumeOrdered(q);
        assertThat(payloads(got)).containsExactly("a", "b", "c");
        assertThat(got).extracting(Delivery::id).containsExactlyElementsOf(ids);
    }

    @Test
    default void sendAll_emptyCollection_returnsNoIdsAndStoresNothing() {
        MessageQueue<String> q = newQueue();
        assertThat(q.sendAll(List.of())).isEmpty();
        assertThat(q.stats().total()).isZero();
        assertThat(q.poll()).isNull();
    }
}
