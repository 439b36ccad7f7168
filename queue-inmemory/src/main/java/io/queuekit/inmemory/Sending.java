package io.queuekit.inmemory;

import io.queuekit.Headers;
import io.queuekit.MessageId;
import io.queuekit.Scheduled;
import io.queuekit.internal.Checks;
import io.queuekit.internal.Delays;
import io.queuekit.internal.Payloads;
import io.queuekit.spi.MessageObservations;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Every form of send of the in-memory queues: the arguments checked and the payloads encoded
 * before anything is stored, and each send run inside the queue's observations, whose added
 * headers each message gets; the {@link Engine} stores.
 */
final class Sending<T> {
    private final Engine<T> engine;
    private final Payloads<T> bodies;

    Sending(Engine<T> engine) {
        this.engine = engine;
        this.bodies = engine.bodies();
    }

    MessageId send(T payload, Headers headers) {
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(headers, "headers");
        return engine.runtime()
                .sending(
                        1,
                        added ->
                                engine.store(null, bodies.store(payload, headers.withAll(added)), Duration.ZERO, null));
    }

    List<MessageId> sendAll(Collection<? extends T> payloads) {
        List<T> copy = Checks.payloads(payloads);
        return sendingAll(
                copy.size(), added -> engine.storeReady(encodeAll(copy, Collections.nCopies(copy.size(), added))));
    }

    MessageId schedule(T payload, Headers headers, Duration delay) {
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(headers, "headers");
        Duration d = Delays.delay(delay);
        return engine.runtime()
                .sending(1, added -> engine.store(null, bodies.store(payload, headers.withAll(added)), d, null));
    }

    MessageId scheduleAt(T payload, Headers headers, Instant dueAt) {
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(headers, "headers");
        Objects.requireNonNull(dueAt, "dueAt");
        return engine.runtime()
                .sending(1, added -> engine.store(null, bodies.store(payload, headers.withAll(added)), null, dueAt));
    }

    boolean schedule(MessageId id, T payload, Headers headers, Duration delay) {
        Checks.callerId(id);
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(headers, "headers");
        Duration d = Delays.delay(delay);
        return engine.runtime()
                        .sending(1, added -> engine.store(id, bodies.store(payload, headers.withAll(added)), d, null))
                != null;
    }

    boolean scheduleAt(MessageId id, T payload, Headers headers, Instant dueAt) {
        Checks.callerId(id);
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(headers, "headers");
        Objects.requireNonNull(dueAt, "dueAt");
        return engine.runtime()
                        .sending(
                                1,
                                added -> engine.store(id, bodies.store(payload, headers.withAll(added)), null, dueAt))
                != null;
    }

    List<MessageId> scheduleAll(Collection<? extends T> payloads, Duration delay) {
        List<T> copy = Checks.payloads(payloads);
        Duration d = Delays.delay(delay);
        return sendingAll(
                copy.size(),
                added -> engine.storeAll(
                        encodeAll(copy, Collections.nCopies(copy.size(), added)),
                        now -> Collections.nCopies(copy.size(), now.plus(d))));
    }

    List<MessageId> scheduleAllAt(Collection<? extends T> payloads, Instant dueAt) {
        List<T> copy = Checks.payloads(payloads);
        Objects.requireNonNull(dueAt, "dueAt");
        return sendingAll(
                copy.size(),
                added -> engine.storeAll(
                        encodeAll(copy, Collections.nCopies(copy.size(), added)),
                        now -> Collections.nCopies(copy.size(), Delays.dueAt(dueAt, now))));
    }

    List<MessageId> scheduleEach(Collection<? extends Scheduled<? extends T>> messages) {
        List<Scheduled<? extends T>> copy = Checks.scheduled(messages);
        List<T> payloads = new ArrayList<>(copy.size());
        for (Scheduled<? extends T> m : copy) {
            payloads.add(m.payload());
        }
        return sendingAll(copy.size(), added -> {
            List<Headers> headers = new ArrayList<>(copy.size());
            for (Scheduled<? extends T> m : copy) {
                headers.add(m.headers().withAll(added));
            }
            return engine.storeAll(encodeAll(payloads, headers), now -> Delays.dueTimes(copy, now));
        });
    }

    /**
     * A batch send of {@code count} messages inside the observations; an empty batch stores
     * nothing, so it is not observed (it still fails on a closed queue).
     */
    private List<MessageId> sendingAll(int count, MessageObservations.Send<List<MessageId>> send) {
        return count == 0 ? send.send(Headers.empty()) : engine.runtime().sending(count, send);
    }

    /** Each payload's body, with the headers at its index; all checked before anything is stored. */
    private List<Object> encodeAll(List<T> payloads, List<Headers> headers) {
        List<Object> encoded = new ArrayList<>(payloads.size());
        for (int i = 0; i < payloads.size(); i++) {
            encoded.add(bodies.store(payloads.get(i), headers.get(i)));
        }
        return encoded;
    }
}
