package io.queuekit.tck;

import static org.awaitility.Awaitility.await;

import io.queuekit.Broadcaster;
import io.queuekit.QueueClosedException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The bad input every broadcaster must refuse, with the channel it is tried on; the queues' cases
 * are in {@link BadInputCatalogue}, which also holds the assertions both use.
 */
public final class BadChannelInputCatalogue {
    private BadChannelInputCatalogue() {}

    /** An open broadcaster with a listening subscription, and a closed one on the same channel. */
    public static final class Channel {
        private final Broadcaster<String> open;
        private final Broadcaster<String> closed;
        private final List<String> heard = new CopyOnWriteArrayList<>();

        /** Subscribes to {@code open} and closes {@code twin}. */
        public Channel(Broadcaster<String> open, Broadcaster<String> twin) {
            this.open = Objects.requireNonNull(open, "open");
            this.closed = Objects.requireNonNull(twin, "twin");
            twin.close();
            open.subscribe(heard::add);
        }

        public Broadcaster<String> open() {
            return open;
        }

        public Broadcaster<String> closed() {
            return closed;
        }

        /** Publishes a marker and waits for it: anything heard before it was published by the case. */
        public List<String> heardBeforeMarker() {
            open.publish("marker");
            await().atMost(Tck.GENEROUS).until(() -> heard.contains("marker"));
            return new ArrayList<>(heard.subList(0, heard.indexOf("marker")));
        }
    }

    /** A call on a channel that must be refused. */
    @FunctionalInterface
    public interface ChannelCall {
        void run(Channel c) throws Exception;
    }

    /** A case: {@code call} must throw {@code expected}, with a message that mentions {@code mentions}. */
    public record ChannelCase(String name, Class<? extends Throwable> expected, String mentions, ChannelCall call) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** The cases every broadcaster must refuse. */
    public static List<ChannelCase> channelCases() {
        Class<NullPointerException> npe = NullPointerException.class;
        Class<QueueClosedException> closed = QueueClosedException.class;
        return List.of(
                new ChannelCase("publish(null)", npe, "message", c -> c.open().publish(null)),
                new ChannelCase(
                        "subscribe(null)", npe, "listener", c -> c.open().subscribe(null)),
                new ChannelCase(
                        "publish(m, null headers)",
                        npe,
                        "headers",
                        c -> c.open().publish("m", null)),
                new ChannelCase(
                        "publish(null, headers)",
                        npe,
                        "message",
                        c -> c.open().publish(null, BadInputCatalogue.HEADERS)),
                new ChannelCase(
                        "subscribeWithHeaders(null)",
                        npe,
                        "listener",
                        c -> c.open().subscribeWithHeaders(null)),
                new ChannelCase(
                        "publishAll(null)", npe, "payloads", c -> c.open().publishAll(null)),
                new ChannelCase(
                        "publishAll([ok, null]) publishes neither",
                        npe,
                        "index 1",
                        c -> c.open().publishAll(Arrays.asList("ok", null))),
                new ChannelCase(
                        "publish on a closed broadcaster",
                        closed,
                        "closed",
                        c -> c.closed().publish("x")),
                new ChannelCase(
                        "publishAll on a closed broadcaster",
                        closed,
                        "closed",
                        c -> c.closed().publishAll(List.of("x"))),
                new ChannelCase(
                        "subscribe on a closed broadcaster",
                        closed,
                        "closed",
                        c -> c.closed().subscribe(m -> {})),
                new ChannelCase(
                        "publish with headers on a closed broadcaster",
                        closed,
                        "closed",
                        c -> c.closed().publish("x", BadInputCatalogue.HEADERS)),
                new ChannelCase(
                        "subscribeWithHeaders on a closed broadcaster",
                        closed,
                        "closed",
                        c -> c.closed().subscribeWithHeaders((m, h) -> {})));
    }
}
