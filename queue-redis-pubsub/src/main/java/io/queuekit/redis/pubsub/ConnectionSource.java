package io.queuekit.redis.pubsub;

import io.queuekit.redis.internal.JedisClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.util.Pool;

/**
 * Lends a subscription a connection from the client's own pools, so that the subscription sets the
 * connection's read timeout itself and decides in what state it goes back: the pool of a
 * standalone client, the current master's pool of a Sentinel client (so that a
 * resubscription after a failover reaches the new master), the nodes' pools of a
 * cluster client in random order (classic PUBLISH reaches subscribers on every node), or
 * for a sharded channel the pool of the master that serves its slot ({@link #forSlot}).
 * {@link #of} returns null for any other client; Jedis then lends the connection.
 *
 * <p>A subscription asks {@link #isCurrent} whether its connection's pool is still where the
 * client sends commands: after a planned Sentinel failover the old primary lives on as a replica
 * and keeps its subscribers, who still receive through replication what the new primary
 * publishes, but the new primary does not count them, so {@code publish} would answer 0.
 *
 * <p>A connection is checked with PING before it is lent: an idle pooled connection may be stale
 * (Redis restarted, a NAT forgot it), and one that fails is discarded and the next one tried. The
 * wait for a free connection is bounded and gives up as soon as the borrower stops, instead of
 * following the pool's {@code maxWait} (forever, by default).
 */
final class ConnectionSource {
    private static final Logger log = LoggerFactory.getLogger(RedisBroadcaster.class);
    /** How long one wait for a free connection lasts before the borrower checks whether to stop. */
    private static final long SLICE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** The pause between tries of a pool that does not wait when it has no connection free. */
    private static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** Stale connections discarded in a row before giving up on a pool; a pool holds at most maxIdle. */
    private static final int MAX_STALE = 256;

    private final Supplier<List<Pool<Connection>>> pools;
    private final boolean followsPrimary;

    private ConnectionSource(Supplier<List<Pool<Connection>>> pools, boolean followsPrimary) {
        this.pools = pools;
        this.followsPrimary = followsPrimary;
    }

    /** The source for {@code client}, or null if this client's pools are not reachable. */
    static ConnectionSource of(UnifiedJedis client) {
        JedisClient jedis = JedisClient.of(client);
        return switch (jedis.kind()) {
            case STANDALONE -> new ConnectionSource(() -> List.of(jedis.pool()), false);
            case SENTINEL -> jedis.reachesPrimaryPool() ? new ConnectionSource(jedis::primaryPools, true) : null;
            case CLUSTER ->
                new ConnectionSource(() -> shuffled(jedis.clusterNodes().values()), false);
            case OTHER -> null;
        };
    }

    /**
     * The source for a sharded channel in {@code slot}: the pool of the master serving it, looked up
     * afresh (the client's view of the cluster refreshed first) each time, so that a subscription
     * lost to a failover or a slot moved away subscribes again where the slot is now.
     */
    static ConnectionSource forSlot(JedisClient cluster, int slot) {
        return new ConnectionSource(
                () -> {
                    try {
                        cluster.refreshSlots();
                    } catch (JedisException e) {
                        log.debug("could not refresh the cluster's topology: {}", e.toString()); // the borrow says more
                    }
                    HostAndPort owner = cluster.masterOf(slot);
                    if (owner == null) {
                        throw new JedisConnectionException("the cluster client knows no master for slot " + slot);
                    }
                    Pool<Connection> pool = cluster.clusterNodes().get(owner.toString());
                    if (pool == null) {
                        throw new JedisConnectionException(
                                "the cluster client has no pool for " + owner + ", which serves slot " + slot);
                    }
                    return List.of(pool);
                },
                false); // Redis itself ends sharded subscriptions when their slot's master changes
    }

    /**
     * Whether a subscription on a connection of {@code pool} is where it should be: false once a
     * Sentinel client has moved to another primary. Any node of a cluster serves classic PUB/SUB, and
     * a plain client has one pool.
     */
    boolean isCurrent(Pool<Connection> pool) {
        return !followsPrimary || pools.get().contains(pool);
    }

    private static List<Pool<Connection>> shuffled(Iterable<? extends Pool<Connection>> pools) {
        List<Pool<Connection>> list = new ArrayList<>();
        pools.forEach(list::add);
        Collections.shuffle(list);
        return list;
    }

    /**
     * A connection that answered PING, or null if {@code stop} became true first.
     *
     * @param maxWait how long to wait for a free connection, in all
     * @param pingTimeoutMillis the read timeout for the PING of a connection whose own is 0 (forever)
     * @throws JedisException if no pool could lend a working connection (the last failure), or none
     *     was free within {@code maxWait}
     */
    Lease borrow(Duration maxWait, int pingTimeoutMillis, BooleanSupplier stop) {
        long deadline = System.nanoTime() + maxWait.toNanos();
        JedisException failure = null;
        for (Pool<Connection> pool : pools.get()) {
            int stale = 0;
            while (true) {
                if (stop.getAsBoolean()) {
                    return null;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new JedisException(
                            "no connection of the client's pool was free within " + maxWait
                                    + " (each subscription holds one while it runs: is the pool large enough?)",
                            failure);
                }
                Connection c;
                try {
                    c = pool.borrowObject(Duration.ofNanos(Math.min(left, SLICE_NANOS)));
                } catch (NoSuchElementException e) {
                    if (e.getCause() == null) {
                        if (!pool.getBlockWhenExhausted()) {
                            // such a pool does not wait: pause here rather than spin
                            LockSupport.parkNanos(Math.min(left, PAUSE_NANOS));
                        }
                        continue; // none free yet
                    }
                    failure = new JedisConnectionException(
                            "the pool could not make a connection: " + e.getMessage(), e.getCause());
                    break;
                } catch (JedisException e) {
                    failure = e; // could not connect: try the next pool, if any
                    break;
                } catch (Exception e) {
                    failure = new JedisException("could not get a connection from the pool: " + e, e);
                    break;
                }
                Lease lease = new Lease(c, pool);
                try {
                    ping(c, pingTimeoutMillis);
                    return lease;
                } catch (JedisConnectionException e) {
                    c.setBroken();
                    lease.release();
                    failure = e;
                    if (++stale > MAX_STALE) {
                        break;
                    }
                } catch (RuntimeException e) {
                    // Redis answered, with an error: the connection is sound, the server is not ready
                    lease.release();
                    throw e;
                }
            }
        }
        throw failure != null ? failure : new JedisConnectionException("the client has no connection pool");
    }

    private static void ping(Connection c, int pingTimeoutMillis) {
        int own = c.getSoTimeout();
        if (own != 0) {
            c.ping();
            return;
        }
        c.setSoTimeout(pingTimeoutMillis);
        c.ping();
        c.setSoTimeout(own);
    }

    /** A borrowed connection and the pool it goes back to. */
    record Lease(Connection connection, Pool<Connection> pool) {

        /** Gives the connection back: destroyed if it is {@linkplain Connection#isBroken() broken}. */
        void release() {
            try {
                if (connection.isBroken()) {
                    pool.returnBrokenResource(connection);
                } else {
                    pool.returnResource(connection);
                }
            } catch (RuntimeException e) {
                // the pool was closed with the client, or already had it back: nothing left to do
                log.debug("could not return a subscription's connection to its pool: {}", e.toString());
            }
        }
    }
}
