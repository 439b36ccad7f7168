package io.queuekit.tck;

import static io.queuekit.tck.Tck.VARIED;
import static io.queuekit.tck.Tck.assertSameHeaders;
import static io.queuekit.tck.Tck.next;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.DelayQueue;
import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageId;
import io.queuekit.Scheduled;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The contract of headers on a delay queue: every form of {@code schedule} and {@code scheduleAt}
 * (with a generated id or a chosen one, due later or at once) and each message of
 * {@code scheduleEach} keep their own headers, exactly; a schedule ignored because its id exists
 * leaves the first message's headers as they are. What every queue does with headers is in
 * {@link HeadersContract}.
 */
interface DelayHeadersContract extends DelayQueueContract {

    /** Takes {@code n} deliveries, unsettled, by payload. */
    private static Map<String, Delivery<String>> takeByPayload(DelayQueue<String> q, int n)
            throws InterruptedException {
        Map<String, Delivery<String>> got = new HashMap<>();
        for (int i = 0; i < n; i++) {
            Delivery<String> d = next(q);
            got.put(d.payload(), d);
        }
        assertThat(got).as("distinct payloads").hasSize(n);
        return got;
    }

    @Test
    default void everyScheduleForm_dueLater_keepsItsHeaders() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        Instant due = time().now().plus(delay());
        Map<String, Headers> sent = new HashMap<>();
        for (String form : List.of("schedule", "scheduleAt", "schedule(id)", "scheduleAt(id)")) {
            sent.put(form, VARIED.with("form", form));
        }

        q.schedule("schedule", sent.get("schedule"), delay());
        q.scheduleAt("scheduleAt", sent.get("scheduleAt"), due);
        assertThat(q.schedule(MessageId.of("chosen-1"), "schedule(id)", sent.get("schedule(id)"), delay()))
                .isTrue();
        assertThat(q.scheduleAt(MessageId.of("chosen-2"), "scheduleAt(id)", sent.get("scheduleAt(id)"), due))
                .isTrue();

        Delivery<String> early = q.poll();
        if (early != null) { // only a host stalled past the due time may see one here: give it back
            assertThat(time().now())
                    .as("a message handed out before it was due")
                    .isAfterOrEqualTo(due);
            early.retry(Duration.ZERO);
        }
        advancePast(delay());
        Map<String, Delivery<String>> got = takeByPayload(q, 4);
        sent.forEach((form, headers) -> assertSameHeaders(got.get(form).headers(), headers, form));
    }

    @Test
    default void everyScheduleForm_dueAtOnce_keepsItsHeaders() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        Instant past = time().now().minus(Duration.ofHours(1));
        Map<String, Headers> sent = new HashMap<>();
        for (String form : List.of("schedule", "scheduleAt", "schedule(id)", "scheduleAt(id)", "plain")) {
            sent.put(form, form.equals("plain") ? Headers.empty() : VARIED.with("form", form));
        }

        q.schedule("schedule", sent.get("schedule"), Duration.ZERO);
        q.scheduleAt("scheduleAt", sent.get("scheduleAt"), past);
        q.schedule(MessageId.of("chosen-1"), "schedule(id)", sent.get("schedule(id)"), Duration.ZERO);
        q.scheduleAt(MessageId.of("chosen-2"), "scheduleAt(id)", sent.get("scheduleAt(id)"), past);
        q.schedule("plain", Duration.ZERO);

        Map<String, Delivery<String>> got = takeByPayload(q, 5);
        sent.forEach((form, headers) -> assertSameHeaders(got.get(form).headers(), headers, form));
    }

    @Test
    default void schedule_withAnExistingId_isIgnored_andTheFirstHeadersStand() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        MessageId id = MessageId.of("order-42-reminder");

        assertThat(q.schedule(id, "first", VARIED, delay())).isTrue();
        assertThat(q.schedule(id, "second", Headers.of("second", "ignored"), Duration.ZERO))
                .isFalse();
        assertThat(q.scheduleAt(id, "third", Headers.of("third", "ignored"), time().now()))
                .isFalse();
        assertThat(q.schedule(id, "fourth", Duration.ZERO))
                .as("without headers")
                .isFalse();

        assertThat(q.stats().delayed()).isEqualTo(1);
        advancePast(delay());
        Delivery<String> d = next(q);
        assertThat(d.id()).isEqualTo(id);
        assertThat(d.payload()).isEqualTo("first");
        assertSameHeaders(d.headers(), VARIED, "the first message scheduled under its id");
        assertThat(q.poll(quietPeriod().toMillis(), MILLISECONDS)).isNull();
    }

    @Test
    default void scheduleEach_keepsEachMessagesOwnHeaders() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        Duration unit = delay().dividedBy(10);
        Instant now = time().now();
        Headers second = Headers.of("n", "2");

        List<MessageId> ids = q.scheduleEach(List.of(
                Scheduled.at("varied", now.plus(unit)).withHeaders(VARIED),
                Scheduled.at("none", now.plus(unit)),
                new Scheduled<>("second", now.minus(unit), second)));

        assertThat(ids).hasSize(3).doesNotHaveDuplicates();
        advancePast(unit);
        Map<String, Delivery<String>> got = takeByPayload(q, 3);
        assertSameHeaders(got.get("varied").headers(), VARIED, "a message given Scheduled.withHeaders");
        assertThat(got.get("none").headers().isEmpty())
                .as("a message scheduled without headers")
                .isTrue();
        assertSameHeaders(got.get("second").headers(), second, "a message due at once");
        assertThat(got.values()).extracting(Delivery::id).containsExactlyInAnyOrderElementsOf(ids);
    }

    @Test
    default void scheduleAll_storesNoHeaders() throws Exception {
        DelayQueue<String> q = newDelayQueue();
        q.scheduleAll(List.of("a", "b"), Duration.ZERO);
        q.scheduleAllAt(List.of("c"), time().now());

        for (Delivery<String> d : takeByPayload(q, 3).values()) {
            assertThat(d.headers().isEmpty()).as("headers of %s", d.payload()).isTrue();
        }
    }

    @Test
    default void schedule_withNullHeaders_throwsNullPointerException_andStoresNothing() {
        DelayQueue<String> q = newDelayQueue();
        MessageId id = MessageId.of("k1");
        Instant now = time().now();

        assertThatThrownBy(() -> q.schedule("p", null, Duration.ZERO))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("headers");
        assertThatThrownBy(() -> q.scheduleAt("p", null, now))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("headers");
        assertThatThrownBy(() -> q.schedule(id, "p", null, Duration.ZERO))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("headers");
        assertThatThrownBy(() -> q.scheduleAt(id, "p", null, now))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("headers");

        assertThat(q.stats().total()).isZero();
        assertThat(q.schedule(id, "p", Duration.ZERO)).as("the id is free").isTrue();
    }
}
