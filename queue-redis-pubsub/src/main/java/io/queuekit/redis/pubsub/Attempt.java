package io.queuekit.redis.pubsub;

import java.time.Instant;
import redis.clients.jedis.BinaryJedisPubSub;
import redis.clients.jedis.BinaryJedisShardedPubSub;
import redis.clients.jedis.Connection;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.util.Pool;

/**
 * One subscription attempt, on one connection: its state, and the Jedis callbacks that read the
 * connection (the classic or the sharded ones: Jedis keeps them in two unrelated classes) and pass
 * what they read to the subscription's {@link SocketReader}. What it subscribes with is known only
 * once its connection is borrowed: a cluster channel is sharded or not as that connection's server
 * says ({@link Sharding}).
 */
final class Attempt {

    /** What a subscription listens to, and so which commands it speaks. */
    enum Kind {
        /** One channel: SUBSCRIBE, reached by PUBLISH from any node of a cluster. */
        CHANNEL("channel"),
        /** The channels a glob matches: PSUBSCRIBE. */
        PATTERN("pattern"),
        /** One sharded channel (Redis 7+ on a cluster): SSUBSCRIBE on the master serving its slot. */
        SHARDED("shard channel");

        final String text;

        Kind(String text) {
            this.text = text;
        }
    }

    /** When the connection before this one was lost, and why; null for the first attempt. */
    final Instant lostAt;

    final Throwable lostCause;
    private final SocketReader reader;
    private final byte[] target;
    /** What it subscribes with; set, with the callbacks, before the attempt is published to other threads. */
    private Kind kind;

    private Classic classic;
    private Sharded sharded;
    boolean confirmed; // guarded by the subscriber's writeLock
    /** The connection, when borrowed by the subscription rather than lent by Jedis; guarded by writeLock. */
    Connection connection;
    /** The pool it came from; null once the subscription was told to leave it; guarded by writeLock. */
    Pool<Connection> pool;

    long startedNanos; // guarded by writeLock
    /** When the reading thread saw the subscription on its own connection end; that thread only. */
    Instant endedAt;

    Attempt(SocketReader reader, byte[] target, Instant lostAt, Throwable lostCause) {
        this.reader = reader;
        this.target = target;
        this.lostAt = lostAt;
        this.lostCause = lostCause;
    }

    /** Decides what it subscribes with; before it is shared with other threads. */
    void use(Kind kind) {
        this.kind = kind;
        this.classic = kind == Kind.SHARDED ? null : new Classic();
        this.sharded = kind == Kind.SHARDED ? new Sharded() : null;
    }

    Kind kind() {
        return kind;
    }

    /** Subscribes on {@code c} and reads it until the subscription ends. */
    void proceed(Connection c) {
        switch (kind) {
            case CHANNEL -> classic.proceed(c, target);
            case PATTERN -> classic.proceedWithPatterns(c, target);
            case SHARDED -> sharded.proceed(c, target);
        }
    }

    /** As {@link #proceed}, on a connection Jedis lends; never sharded (only a cluster client shards). */
    void subscribeThrough(UnifiedJedis jedis) {
        switch (kind) {
            case CHANNEL -> jedis.subscribe(classic, target);
            case PATTERN -> jedis.psubscribe(classic, target);
            case SHARDED -> throw new IllegalStateException("a sharded subscription borrows its own connection");
        }
    }

    /** The keep-alive: the subscription repeated, which Redis answers with a confirmation. */
    void subscribeAgain() {
        switch (kind) {
            case CHANNEL -> classic.subscribe(target);
            case PATTERN -> classic.psubscribe(target);
            case SHARDED -> sharded.ssubscribe(target);
        }
    }

    void unsubscribe() {
        switch (kind) {
            case CHANNEL -> classic.unsubscribe();
            case PATTERN -> classic.punsubscribe();
            case SHARDED -> sharded.sunsubscribe();
        }
    }

    /** Jedis's callbacks for classic PUB/SUB. */
    private final class Classic extends BinaryJedisPubSub {
        @Override
        public void onSubscribe(byte[] channel, int subscribedChannels) {
            reader.subscribed(Attempt.this);
        }

        @Override
        public void onPSubscribe(byte[] pattern, int subscribedChannels) {
            reader.subscribed(Attempt.this);
        }

        @Override
        public void onMessage(byte[] channel, byte[] message) {
            reader.received(null, message);
        }

        @Override
        public void onPMessage(byte[] pattern, byte[] channel, byte[] message) {
            reader.received(channel, message);
        }
    }

    /** Jedis's callbacks for sharded PUB/SUB. */
    private final class Sharded extends BinaryJedisShardedPubSub {
        @Override
        public void onSSubscribe(byte[] channel, int subscribedChannels) {
            reader.subscribed(Attempt.this);
        }

        @Override
        public void onSMessage(byte[] channel, byte[] message) {
            reader.received(null, message);
        }
    }
}
