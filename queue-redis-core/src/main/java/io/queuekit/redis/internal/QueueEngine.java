package io.queuekit.redis.internal;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.DeadLetters;
import io.queuekit.Delivery;
import io.queuekit.MessageHandler;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.QueueClosedException;
import io.queuekit.QueueStats;
import io.queuekit.Subscription;
import io.queuekit.internal.Checks;
import io.queuekit.internal.Codecs;
import io.queuekit.internal.PayloadLimit;
import io.queuekit.internal.Consumers;
import io.queuekit.internal.LeaseKeeper;
import io.queuekit.spi.QueueMetrics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import redis.clients.jedis.UnifiedJedis;

/**
 * The at-least-once machinery shared by the Redis queues: store, claim under a lease, settle,
 * reap expired leases, dead letters, stats. Every operation is one Lua script, composed of
 * {@code common.lua}, the transport's storage file (how ready and delayed ids are kept) and the
 * operation, so each is atomic and one round trip. For transport modules; applications use the
 * transports' entry classes.
 *
 * <p>Data model (all keys in the queue's hash tag): bodies in a hash by id, with the enqueue time
 * as a header; ids in the transport's ready structure; leases in a sorted set by deadline;
 * attempts in a hash; dead letters in a sorted set by time, with reasons in a hash.
 *
 * @param <T> the payload type
 */
public final class QueueEngine<T> {
    private static final String LUA = "/io/queuekit/redis/lua/";
    private static final String[] PARTS = {
        "ready", "body", "att", "inflight", "delayed", "dead", "reason", "seq", "signal", "claiming", "lease",
        "layout"
    };
    /** Open; closing (receiving refused, settling accepted while consumers drain); closed. */
    private enum Phase { OPEN, CLOSING, CLOSED }

    private final UnifiedJedis jedis;
    private final RedisQueueSettings settings;
    private final Codec<T> codec;
    private final String label;
    private final List<byte[]> keys;
    private final Class<?> anchor;
    private final String storage;
    private final AtomicReference<Phase> phase = new AtomicReference<>(Phase.OPEN);
    private final Consumers consumers;
    private volatile Supplier<QueueStats> statsSource = this::stats;
    /** Core operation scripts, loaded on first use: a transport may never run some of them. */
    private final Map<String, LuaScript> operations = new ConcurrentHashMap<>();
    private final byte[] lease, maxAttempts, retention;
    private final QueueMetrics.Observer observer;

    /**
     * @param transport the transport's name, for messages ({@code redis-list})
     * @param anchor a class of the transport's module, to load its scripts
     * @param storage class-path resource of the transport's storage file
     * @param redelivers whether deliveries hold leases (at-least-once), which managed consumers renew
     */
    public QueueEngine(UnifiedJedis jedis, RedisQueueSettings settings, Codec<T> codec, String transport,
            Class<?> anchor, String storage, boolean redelivers) {
        this.jedis = jedis;
        this.settings = settings;
        this.codec = codec;
        this.label = transport + " " + settings.keys().name();
        this.anchor = anchor;
        this.storage = storage;
        List<byte[]> k = new ArrayList<>();
        for (String p : PARTS) {
            k.add(settings.keys().keyBytes(p));
        }
        this.keys = List.copyOf(k);
        this.lease = num(settings.visibilityTimeout().toMillis());
        this.maxAttempts = num(settings.maxAttempts());
        this.retention = num(settings.deadLetterRetention());
        this.observer = settings.metrics().observe(settings.keys().name(), transport, settings.keys().prefix(),
                () -> statsSource.get());
        String threads = "queuekit-" + settings.keys().name() + "-leases";
        Duration leaseTime = settings.visibilityTimeout();
        this.consumers = new Consumers(settings.keys().name(), settings.maxAttempts(), observer,
                () -> redelivers ? LeaseKeeper.renewing(threads, leaseTime) : LeaseKeeper.none());
    }

    /**
     * Where the metrics gauges read the queue's counts, when the transport counts differently from
     * {@link #stats()} (the list queue counts what is in flight by its in-flight list).
     */
    public void statsSource(Supplier<QueueStats> source) {
        this.statsSource = Objects.requireNonNull(source, "source");
    }

    /** Where this queue reports what it does; transports report what they do outside the engine. */
    public QueueMetrics.Observer observer() {
        return observer;
    }

    /**
     * A script made of {@code common.lua}, the storage file and {@code operation}: a core
     * operation's file name, or a class-path resource of the transport's own (starting with /).
     */
    public LuaScript script(String operation) {
        String op = operation.startsWith("/") ? operation : LUA + operation;
        return LuaScript.load(anchor, LUA + "common.lua", storage, op);
    }

    private LuaScript op(String file) {
        return operations.computeIfAbsent(file, this::script);
    }

    /** Runs one of this queue's scripts with the queue's keys. */
    public Object eval(String what, LuaScript script, List<byte[]> args) {
        checkOpen();
        return RedisCalls.call(label + ": " + what, () -> script.eval(jedis, keys, args));
    }

    public RedisQueueSettings settings() {
        return settings;
    }

    /** "transport name", for messages and logs. */
    public String label() {
        return label;
    }

    /** The key of one part ({@code ready}, {@code claiming}, {@code signal}, ...). */
    public String key(String part) {
        return settings.keys().key(part);
    }

    // ---- sending

    /** Encodes and size-checks every payload before anything is sent. */
    public List<byte[]> encodeAll(List<? extends T> payloads) {
        List<byte[]> out = new ArrayList<>(payloads.size());
        for (int i = 0; i < payloads.size(); i++) {
            byte[] b = Codecs.encode(codec, payloads.get(i));
            out.add(PayloadLimit.check(b, settings.maxPayloadBytes(),
                    label + ": payload" + (payloads.size() > 1 ? " at index " + i : "")));
        }
        return out;
    }

    /**
     * Stores payloads with generated ids, ready after {@code delayMillis} on the server's clock (or
     * at {@code dueAtMillis} when {@code absolute}). One round trip.
     */
    public List<MessageId> send(List<? extends T> payloads, boolean absolute, long millis) {
        checkOpen();
        List<byte[]> encoded = encodeAll(payloads);
        if (encoded.isEmpty()) {
            return List.of();
        }
        List<byte[]> args = new ArrayList<>(encoded.size() + 3);
        args.add(bytes("new"));
        args.add(bytes(absolute ? "abs" : "rel"));
        args.add(num(millis));
        args.addAll(encoded);
        List<?> ids = (List<?>) eval("send", op("enqueue.lua"), args);
        observer.sent(ids.size());
        List<MessageId> out = new ArrayList<>(ids.size());
        for (Object id : ids) {
            out.add(MessageId.of(str(id)));
        }
        return out;
    }

    /** Stores a payload under a caller's id unless that id is stored; true if stored. */
    public boolean sendWithId(MessageId id, T payload, boolean absolute, long millis) {
        Checks.callerId(id);
        checkOpen();
        byte[] encoded = encodeAll(List.of(payload)).get(0);
        List<?> r = (List<?>) eval("schedule", op("enqueue.lua"), List.of(bytes("ids"), bytes(absolute ? "abs" : "rel"),
                num(millis), bytes(id.value()), encoded));
        boolean stored = ((Long) r.get(0)) == 1L;
        if (stored) {
            observer.sent(1);
        }
        return stored;
    }

    // ---- receiving

    /** One claim: up to {@code max} deliveries, and when to look again. */
    public Claimed<T> claim(int max) {
        checkReceiving();
        List<?> r = (List<?>) eval("claim", op("claim.lua"), List.of(num(max), lease, maxAttempts, retention));
        long now = (Long) r.get(0);
        long next = (Long) r.get(1);
        long reaped = (Long) r.get(2);
        long buried = (Long) r.get(3);
        List<Delivery<T>> out = new ArrayList<>((r.size() - 4) / 4);
        for (int i = 4; i < r.size(); i += 4) {
            byte[] body = (byte[]) r.get(i + 3);
            out.add(new RedisDelivery<>(this, MessageId.of(str(r.get(i))), ((Long) r.get(i + 1)).intValue(),
                    (Long) r.get(i + 2), body));
            observer.delivered(Duration.ofMillis(now - enqueuedMillis(body)));
        }
        if (reaped > 0) {
            observer.redelivered(reaped);
        }
        for (long i = 0; i < buried; i++) {
            observer.deadLettered();
        }
        return new Claimed<>(now, next, reaped, out);
    }

    /**
     * The result of one claim, with the server's clock.
     *
     * @param reaped expired leases this claim returned to the ready messages
     */
    public record Claimed<T>(long nowMillis, long nextEventMillis, long reaped, List<Delivery<T>> deliveries) {}

    /**
     * Claims up to {@code max}, waiting up to {@code timeoutNanos} with {@code waiter} between
     * claims. Each wait lasts until the next delayed message or lease falls due, capped by the
     * block timeout and the caller's deadline.
     *
     * @throws InterruptedException if interrupted on entry or noticed between blocking calls
     */
    public List<Delivery<T>> receive(int max, long timeoutNanos, Waiter waiter) throws InterruptedException {
        int n = Math.min(Checks.batchSize(max), settings.claimBatch());
        long deadline = System.nanoTime() + timeoutNanos;
        long cap = settings.blockTimeout().toMillis();
        while (true) {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            Claimed<T> c = claim(n);
            if (!c.deliveries().isEmpty()) {
                return c.deliveries();
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return List.of();
            }
            long leftMillis = TimeUnit.NANOSECONDS.toMillis(left) + 1;
            long untilDeadline = Math.min(cap, leftMillis);
            long untilEvent = c.nextEventMillis() < 0 ? Long.MAX_VALUE : c.nextEventMillis() - c.nowMillis();
            long wait = Math.min(untilDeadline, untilEvent);
            if (wait <= 0) {
                continue;
            }
            boolean woken = RedisCalls.call(label + ": wait", () -> waiter.await(wait, untilDeadline));
            checkReceiving();
            if (!woken && leftMillis <= cap && untilEvent > leftMillis) {
                // the caller's deadline came with no wake-up and nothing falling due: nothing to claim
                return List.of();
            }
        }
    }

    // ---- settling (called by RedisDelivery)

    boolean ack(MessageId id, long token) {
        boolean done = one(eval("ack", op("ack.lua"), List.of(bytes(id.value()), num(token))));
        if (done) {
            observer.acked();
        }
        return done;
    }

    /**
     * Acks many deliveries in one round trip: this engine's own in one script, any others one by
     * one. Returns how many were settled.
     */
    public int ackAll(Collection<? extends Delivery<T>> deliveries) {
        List<byte[]> args = new ArrayList<>(deliveries.size() * 2);
        List<RedisDelivery<T>> mine = new ArrayList<>(deliveries.size());
        int others = 0;
        for (Delivery<T> d : List.copyOf(deliveries)) {
            if (d instanceof RedisDelivery<T> rd && rd.engine() == this) {
                if (rd.settled().claim()) { // skipped if already settled, as its ack() would be
                    mine.add(rd);
                    args.add(bytes(d.id().value()));
                    args.add(num(rd.token()));
                }
            } else if (d.ack()) {
                others++;
            }
        }
        if (args.isEmpty()) {
            return others;
        }
        long acked;
        try {
            acked = (Long) eval("ack", op("ack.lua"), args);
        } catch (RuntimeException e) {
            mine.forEach(rd -> rd.settled().release());
            throw e;
        }
        for (long i = 0; i < acked; i++) {
            observer.acked();
        }
        return (int) acked + others;
    }

    boolean retry(MessageId id, long token, Duration delay) {
        boolean done = one(eval("retry", op("retry.lua"), List.of(bytes(id.value()), num(token),
                num(delayMillis(delay)))));
        if (done) {
            observer.retried();
        }
        return done;
    }

    boolean extendLease(MessageId id, long token, Duration duration) {
        return one(eval("extend lease", op("renew.lua"), List.of(bytes(id.value()), num(token),
                num(duration.toMillis()))));
    }

    boolean deadLetter(MessageId id, long token, String reason) {
        boolean done = one(eval("dead-letter", op("deadletter.lua"), List.of(bytes(id.value()), num(token),
                bytes(reason == null ? "" : reason), retention)));
        if (done) {
            observer.deadLettered();
        }
        return done;
    }

    T decode(byte[] payload) {
        return Codecs.decode(codec, payload);
    }

    // ---- inspection

    public QueueStats stats() {
        List<?> r = (List<?>) eval("stats", op("stats.lua"), List.of(maxAttempts));
        return new QueueStats((Long) r.get(0), (Long) r.get(1), (Long) r.get(2), (Long) r.get(3));
    }

    /** The queue's maximum attempts and dead-letter retention, as script arguments. */
    public List<byte[]> reapArgs() {
        return List.of(maxAttempts, retention);
    }

    public DeadLetters<T> deadLetters() {
        return new RedisDeadLetters<>(this);
    }

    List<?> deadList(int limit) {
        return (List<?>) eval("list dead letters", op("dead_list.lua"), List.of(num(limit)));
    }

    long deadMove(boolean requeue, MessageId one, int count) {
        return (Long) eval(requeue ? "requeue" : "purge", op("dead_move.lua"), List.of(bytes(requeue ? "requeue" : "purge"),
                bytes(one != null ? "one" : "oldest"), one != null ? bytes(one.value()) : num(count)));
    }

    // ---- lifecycle

    /** Throws {@link QueueClosedException} once the queue is closed (not while it is closing). */
    public void checkOpen() {
        if (phase.get() == Phase.CLOSED) {
            throw new QueueClosedException(label);
        }
    }

    /** Throws {@link QueueClosedException} as soon as closing begins: receiving ends first. */
    public void checkReceiving() {
        if (phase.get() != Phase.OPEN) {
            throw new QueueClosedException(label);
        }
    }

    /** Whether receivers must stop: the queue is closing or closed. */
    public boolean isClosing() {
        return phase.get() != Phase.OPEN;
    }

    /**
     * Starts managed consumers on {@code queue} (the transport's entry object, whose receiving
     * methods they call); they are stopped when this engine closes.
     */
    public Subscription consume(MessageQueue<T> queue, MessageHandler<T> handler, ConsumeOptions options) {
        return consumers.start(queue, handler, options); // refuses once closing began
    }

    /**
     * Closes gracefully: receivers stop (those blocked notice within a block timeout), the managed
     * consumers' running handlers finish and settle, then every call is refused. True on the first
     * call; a second one waits for the first to end.
     */
    public boolean close() {
        if (!phase.compareAndSet(Phase.OPEN, Phase.CLOSING)) {
            consumers.awaitShutDown();
            return false;
        }
        consumers.shutDown(() -> {
            phase.set(Phase.CLOSED);
            observer.close();
        });
        return true;
    }

    /**
     * Whole milliseconds of a delay, rounded up, plus one for a positive delay: the server adds it
     * to its clock truncated to the millisecond, which may lag the true time by up to a
     * millisecond. So a message is never due before the delay has passed.
     */
    public static long delayMillis(Duration delay) {
        if (delay.isZero()) {
            return 0;
        }
        long ms = delay.toMillis();
        return (delay.getNano() % 1_000_000 == 0 ? ms : ms + 1) + 1;
    }

    // ---- encoding helpers

    /** Splits a stored body {@code "<enqueued ms>:<payload>"}. */
    static long enqueuedMillis(byte[] body) {
        long ms = 0;
        for (byte b : body) {
            if (b == ':') {
                return ms;
            }
            ms = ms * 10 + (b - '0');
        }
        return ms;
    }

    static byte[] payloadOf(byte[] body) {
        for (int i = 0; i < body.length; i++) {
            if (body[i] == ':') {
                byte[] p = new byte[body.length - i - 1];
                System.arraycopy(body, i + 1, p, 0, p.length);
                return p;
            }
        }
        return body;
    }

    static Instant instant(long millis) {
        return Instant.ofEpochMilli(millis);
    }

    private static boolean one(Object r) {
        return ((Long) r) == 1L;
    }

    public static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    public static byte[] num(long n) {
        return Long.toString(n).getBytes(StandardCharsets.US_ASCII);
    }

    public static String str(Object reply) {
        return reply instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : String.valueOf(reply);
    }
}
