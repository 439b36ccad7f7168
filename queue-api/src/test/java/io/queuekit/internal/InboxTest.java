package io.queuekit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The bounds of what a subscription holds. */
@Timeout(10)
class InboxTest {

    @Test
    void itemsTakenOut_stayHeld_untilReleased() throws Exception {
        Inbox<String> inbox = new Inbox<>(10, 8, String::length);
        assertThat(inbox.offer("aaaa")).isTrue();
        assertThat(inbox.offer("bbbb")).isTrue();
        assertThat(inbox.offer("c")).as("8 bytes held").isFalse();

        List<String> batch = new ArrayList<>();
        assertThat(inbox.drainTo(batch, 10)).isEqualTo(2);
        assertThat(inbox.bytes()).isEqualTo(8);
        assertThat(inbox.offer("c")).as("taken out, not released").isFalse();

        inbox.release(batch.get(0));
        assertThat(inbox.bytes()).isEqualTo(4);
        assertThat(inbox.offer("cccc")).isTrue();
        assertThat(inbox.size()).isEqualTo(2);
    }

    @Test
    void anItemLargerThanTheByteBound_isTakenWhenNothingElseIsHeld() throws Exception {
        Inbox<String> inbox = new Inbox<>(10, 2, String::length);
        assertThat(inbox.offer("large")).isTrue();
        assertThat(inbox.offer("x")).isFalse();
        List<String> batch = new ArrayList<>();
        inbox.drainTo(batch, 1);
        inbox.release(batch.get(0));
        assertThat(inbox.offer("x")).isTrue();
    }

    @Test
    void close_dropsWhatIsHeld_wakesAWaitingTaker_andRefusesItems() throws Exception {
        Inbox<String> inbox = new Inbox<>(1, 100, String::length);
        CompletableFuture<Integer> taken = CompletableFuture.supplyAsync(() -> {
            try {
                return inbox.drainTo(new ArrayList<>(), 10);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        inbox.close();
        assertThat(taken.get(5, TimeUnit.SECONDS)).isZero();
        assertThat(inbox.offer("a")).isFalse();
        assertThat(inbox.offer("a", 1, TimeUnit.SECONDS)).isFalse();
        assertThat(inbox.bytes()).isZero();
    }
}
