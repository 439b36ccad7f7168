package io.queuekit.tck;

import static io.queuekit.tck.Tck.await;
import static io.queuekit.tck.Tck.quickOptions;
import static io.queuekit.tck.Tck.takeAndAck;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.queuekit.MessageQueue;
import io.queuekit.Semantics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The order of each key's messages ({@link Semantics.Ordering#PER_KEY}): the queue is built with
 * {@link QueueConfig#key()}, messages of several keys are sent interleaved, alone and in batches,
 * and one consumer must see each key's messages in send order. An order of all messages (FIFO, due
 * time) keeps each key's order too, so those transports are held to it as well; a transport that
 * promises no order skips it.
 */
interface KeyedOrderContract extends QueueContract {

    /** The key of a payload {@code "<key>:<n>"}. */
    Function<String, String> KEY = p -> p.substring(0, p.indexOf(':'));

    @Test
    default void perKey_oneConsumer_getsEachKeysMessagesInSendOrder() throws Exception {
        MessageQueue<String> q = newQueue(config().withKey(KEY));
        assumeKeysOrdered(q);
        List<String> sent = sendInterleaved(q);

        List<String> got = takeAndAck(q, sent.size());

        assertKeysInOrder(got, sent);
    }

    @Test
    default void perKey_oneManagedConsumer_handlesEachKeysMessagesInSendOrder() throws Exception {
        MessageQueue<String> q = newQueue(config().withKey(KEY));
        assumeKeysOrdered(q);
        List<String> sent = sendInterleaved(q);
        List<String> got = new CopyOnWriteArrayList<>();

        closeLater(q.consume(d -> got.add(d.payload()), quickOptions(1, Duration.ZERO)));

        await().until(() -> got.size() >= sent.size());
        assertKeysInOrder(got, sent);
    }

    private static void assumeKeysOrdered(MessageQueue<?> q) {
        Semantics.Ordering o = q.semantics().ordering();
        assumeTrue(
                o == Semantics.Ordering.PER_KEY || o == Semantics.Ordering.FIFO || o == Semantics.Ordering.DUE_TIME,
                "no order per key promised: " + q.semantics());
    }

    /**
     * Sends 60 messages of five keys, interleaved: most alone, every tenth step a batch holding two
     * messages of one key around one of another.
     */
    private static List<String> sendInterleaved(MessageQueue<String> q) {
        List<String> sent = new ArrayList<>();
        for (int i = 0; sent.size() < 60; i++) {
            String key = "k" + (i % 5);
            if (i % 10 == 0) {
                List<String> batch =
                        List.of(key + ":" + i + "a", "k" + ((i + 1) % 5) + ":" + i + "b", key + ":" + i + "c");
                q.sendAll(batch);
                sent.addAll(batch);
            } else {
                q.send(key + ":" + i);
                sent.add(key + ":" + i);
            }
        }
        return sent;
    }

    private static void assertKeysInOrder(List<String> got, List<String> sent) {
        assertThat(got).as("each message handed out once").containsExactlyInAnyOrderElementsOf(sent);
        for (String key : sent.stream().map(KEY).distinct().collect(Collectors.toList())) {
            assertThat(got.stream().filter(p -> KEY.apply(p).equals(key)).collect(Collectors.toList()))
                    .as("the messages of key %s", key)
                    .containsExactlyElementsOf(
                            sent.stream().filter(p -> KEY.apply(p).equals(key)).collect(Collectors.toList()));
        }
    }
}
