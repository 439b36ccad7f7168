package io.queuekit.tck;

import io.queuekit.Headers;
import io.queuekit.spi.MessageObservations;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Observations that record what a queue or broadcaster shows them, as a tracer would use them:
 * each send adds the header {@value #HEADER} naming that send ({@code send-1}, {@code send-2}, ...),
 * as a tracer adds {@code traceparent}, and each handling is recorded with the headers it was given
 * and marks its thread while it runs, as a tracer opens a scope, so that a handler can tell it runs
 * inside.
 */
final class RecordingObservations implements MessageObservations {
    /** The header every send adds. */
    static final String HEADER = "tck-observed";

    /** One send: where, of how many messages, and the value of {@link #HEADER} it added. */
    record Sent(Destination destination, int count, String value) {}

    /** One handling: where, and the headers of the message handled. */
    record Handled(Destination destination, Headers headers) {}

    private final List<Sent> sent = new CopyOnWriteArrayList<>();
    private final List<Handled> handled = new CopyOnWriteArrayList<>();
    private final AtomicInteger sends = new AtomicInteger();
    /** The headers of the handling each thread is inside. */
    private final Map<Thread, Headers> inside = new ConcurrentHashMap<>();

    @Override
    public <R> R sending(Destination destination, int count, Send<R> send) {
        String value = "send-" + sends.incrementAndGet();
        sent.add(new Sent(destination, count, value));
        return send.send(Headers.of(HEADER, value));
    }

    @Override
    public void handling(Destination destination, Headers headers, Handling handling) throws Exception {
        handled.add(new Handled(destination, headers));
        Thread t = Thread.currentThread();
        Headers outer = inside.put(t, headers);
        try {
            handling.run();
        } finally {
            if (outer == null) {
                inside.remove(t);
            } else {
                inside.put(t, outer);
            }
        }
    }

    /** The sends seen so far, in the order they began. */
    List<Sent> sent() {
        return List.copyOf(sent);
    }

    /** The handlings seen so far, in the order they began. */
    List<Handled> handled() {
        return List.copyOf(handled);
    }

    /** The headers of the handling running on this thread; null outside any. */
    Headers handlingOnThisThread() {
        return inside.get(Thread.currentThread());
    }
}
