package io.queuekit.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The contract of the ids a queue generates: one of its own for every message, however alike the
 * payloads, each marked as generated ({@link io.queuekit.MessageId#isGenerated()}). Ids a caller
 * chooses are in {@link ChosenIdContract}.
 */
interface IdContract extends QueueContract {

    @Test
    default void send_returnsADistinctIdForEveryMessage_evenForEqualPayloads() {
        MessageQueue<String> q = newQueue();
        Set<MessageId> ids = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            ids.add(q.send("same"));
        }
        assertThat(ids).hasSize(50);
        assertThat(q.stats().ready()).isEqualTo(50);
    }

    @Test
    default void generatedIds_carryTheGeneratedMark() {
        MessageQueue<String> q = newQueue();
        List<MessageId> ids = new ArrayList<>(q.sendAll(List.of("a", "b")));
        ids.add(q.send("c"));
        assertThat(ids)
                .allSatisfy(id -> assertThat(id.isGenerated())
                        .as("%s is marked generated", id)
                        .isTrue());
    }
}
