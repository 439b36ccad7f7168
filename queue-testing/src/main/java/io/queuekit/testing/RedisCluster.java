package io.queuekit.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.params.MigrateParams;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * A real Redis Cluster for tests: {@code masters} primaries that share the 16384 slots evenly, each
 * with {@code replicasPerMaster} replicas, every node a {@link RedisServer} child process on a free
 * port of 127.0.0.1 (PATH or EMBEDDED source, the same binary for all). The cluster is formed with
 * {@code CLUSTER MEET}, {@code ADDSLOTS} and {@code REPLICATE} from Java, so no {@code redis-cli} is
 * needed.
 *
 * <pre>{@code
 * try (RedisCluster cluster = RedisCluster.builder().masters(3).replicasPerMaster(1).start();
 *      RedisClusterClient client = cluster.client()) {
 *     client.set("k", "v");
 *     RedisServer owner = cluster.masterFor("k");
 *     owner.kill();                          // SIGKILL; its replica is promoted
 *     cluster.awaitHealthy(Duration.ofSeconds(20));
 *     cluster.migrateSlot(RedisCluster.slotOf("k"), cluster.masters().get(0));
 * }
 * }</pre>
 *
 * <p>Nodes keep their identity ({@code nodes.conf} in their data directory) across
 * {@link RedisServer#restart()}, so a killed node rejoins as the same node. Thread-safe for reads;
 * calls that change the topology are serialized. {@link #close()} kills every node and is idempotent.
 */
public final class RedisCluster implements AutoCloseable {

    /** The number of hash slots of every Redis Cluster. */
    public static final int SLOTS = 16384;

    private static final Logger LOG = LoggerFactory.getLogger(RedisCluster.class);
    private static final int TIMEOUT_MILLIS = 2_000;
    private static final int MIGRATE_BATCH = 100;
    private static final Object SHARED_LOCK = new Object();
    private static RedisCluster sharedCluster;

    private final List<RedisServer> nodes;
    private final Duration nodeTimeout;
    private final Duration startupTimeout;
    private final boolean shared;

    private RedisCluster(List<RedisServer> nodes, Duration nodeTimeout, Duration startupTimeout, boolean shared) {
        this.nodes = List.copyOf(nodes);
        this.nodeTimeout = nodeTimeout;
        this.startupTimeout = startupTimeout;
        this.shared = shared;
    }

    /** A builder with the defaults: 3 masters, no replicas, a 2 s node timeout. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * One cluster of three masters without replicas per JVM, started on first call and closed by a
     * shutdown hook; for tests that only need some cluster. Every test class of the JVM shares it: use
     * unique keys, never {@code FLUSHALL}, never kill its nodes or move its slots. {@link #close()} on
     * it does nothing.
     */
    public static RedisCluster shared() {
        synchronized (SHARED_LOCK) {
            if (sharedCluster == null) {
                RedisCluster cluster = new Builder().start(true);
                Runtime.getRuntime()
                        .addShutdownHook(new Thread(cluster::closeNodes, "queuekit-redis-cluster-shutdown"));
                sharedCluster = cluster;
            }
            return sharedCluster;
        }
    }

    /** The slot of {@code key}, honouring a hash tag ({@code {...}}) as Redis does. */
    public static int slotOf(String key) {
        return JedisClusterCRC16.getSlot(key);
    }

    /** Every node, masters and replicas, in start order; a node keeps its place after a failover. */
    public List<RedisServer> nodes() {
        return nodes;
    }

    /** The nodes that are masters now and running, in start order. */
    public List<RedisServer> masters() {
        List<RedisServer> out = new ArrayList<>();
        for (RedisServer node : nodes) {
            if (node.isRunning() && "master".equals(role(node))) {
                out.add(node);
            }
        }
        return out;
    }

    /** The address of every node, for a cluster client's seed list. */
    public Set<HostAndPort> addresses() {
        Set<HostAndPort> out = new LinkedHashSet<>();
        for (RedisServer node : nodes) {
            out.add(new HostAndPort(node.host(), node.port()));
        }
        return out;
    }

    /** A cluster client on every node with the timeouts of {@link RedisClients}; the caller closes it. */
    public RedisClusterClient client() {
        return client(settings -> {});
    }

    /**
     * A cluster client on every node whose connections have the settings {@code settings} gives a
     * {@link RedisClients.Builder} (timeouts, protocol); the caller closes it.
     */
    public RedisClusterClient client(Consumer<RedisClients.Builder> settings) {
        RedisClients.Builder config = RedisClients.builder(nodes.get(0));
        settings.accept(config);
        return RedisClusterClient.builder()
                .nodes(addresses())
                .clientConfig(config.clientConfig())
                .poolConfig(RedisClients.poolConfig(RedisClients.POOL_SIZE))
                .maxTotalRetriesDuration(nodeTimeout.multipliedBy(5))
                .build();
    }

    /** The running master that serves {@code slot} now, as the nodes see it. */
    public RedisServer masterOf(int slot) {
        checkSlot(slot);
        for (RedisServer node : nodes) {
            if (!node.isRunning()) {
                continue;
            }
            try (Jedis jedis = connect(node)) {
                if (!jedis.clusterInfo().contains("cluster_state:ok")) {
                    continue;
                }
                for (Object range : clusterSlots(jedis)) {
                    List<?> r = (List<?>) range;
                    long from = (Long) r.get(0);
                    long to = (Long) r.get(1);
                    if (slot >= from && slot <= to) {
                        int port = ((Long) ((List<?>) r.get(2)).get(1)).intValue();
                        return nodeOnPort(port);
                    }
                }
            } catch (JedisException e) {
                // a node going down: ask the next
            }
        }
        throw new RedisServerException("no running node of " + this + " knows who serves slot " + slot);
    }

    /** The running master that serves {@code key} now. */
    public RedisServer masterFor(String key) {
        return masterOf(slotOf(Objects.requireNonNull(key, "key")));
    }

    /**
     * Waits until every running node reports {@code cluster_state:ok}, agrees on who serves each slot,
     * and every running replica's link to its master is up.
     *
     * @throws RedisServerException if that does not happen within {@code timeout}
     */
    public void awaitHealthy(Duration timeout) {
        await(timeout, "become healthy", this::healthy);
    }

    /**
     * Moves {@code slot}, keys included, to {@code target} as {@code redis-cli --cluster reshard}
     * does: IMPORTING on the target, MIGRATING on the source, {@code MIGRATE} in batches, then
     * {@code SETSLOT NODE} on every master. Clients see ASK and MOVED redirections meanwhile, as in
     * production. Does nothing if {@code target} serves it already.
     */
    public synchronized void migrateSlot(int slot, RedisServer target) {
        checkSlot(slot);
        RedisServer source = masterOf(slot);
        if (source == target) {
            return;
        }
        try (Jedis from = connect(source);
                Jedis to = connect(target)) {
            String sourceId = from.clusterMyId();
            String targetId = to.clusterMyId();
            to.clusterSetSlotImporting(slot, sourceId);
            from.clusterSetSlotMigrating(slot, targetId);
            while (true) {
                List<String> keys = from.clusterGetKeysInSlot(slot, MIGRATE_BATCH);
                if (keys.isEmpty()) {
                    break;
                }
                from.migrate(
                        target.host(), target.port(), TIMEOUT_MILLIS, new MigrateParams(), keys.toArray(new String[0]));
            }
            to.clusterSetSlotNode(slot, targetId);
            from.clusterSetSlotNode(slot, targetId);
            for (RedisServer master : masters()) {
                if (master != source && master != target) {
                    try (Jedis other = connect(master)) {
                        other.clusterSetSlotNode(slot, targetId);
                    }
                }
            }
        }
        LOG.info("slot {} moved from port {} to port {}", slot, source.port(), target.port());
        awaitHealthy(startupTimeout);
    }

    /** Kills every node and deletes their directories; idempotent; does nothing on {@link #shared()}. */
    @Override
    public void close() {
        if (!shared) {
            closeNodes();
        }
    }

    @Override
    public String toString() {
        return "RedisCluster[" + nodes.size() + " nodes from port "
                + nodes.get(0).port() + "]";
    }

    private void closeNodes() {
        for (RedisServer node : nodes) {
            node.close();
        }
    }

    private boolean healthy() {
        String agreed = null;
        for (RedisServer node : nodes) {
            if (!node.isRunning()) {
                continue;
            }
            try (Jedis jedis = connect(node)) {
                if (!jedis.clusterInfo().contains("cluster_state:ok")) {
                    return false;
                }
                String info = jedis.info("replication");
                if (info.contains("role:slave") && !info.contains("master_link_status:up")) {
                    return false;
                }
                String slots = slotOwners(jedis);
                if (agreed == null) {
                    agreed = slots;
                } else if (!agreed.equals(slots)) {
                    return false;
                }
            } catch (JedisException e) {
                return false;
            }
        }
        return agreed != null;
    }

    /** CLUSTER SLOTS: each range as [from, to, [host, port, id], replicas...]. */
    @SuppressWarnings(
            "deprecation") // CLUSTER SHARDS, which Jedis points to instead, needs Redis 7; the fixture runs 6.2 too
    private static List<Object> clusterSlots(Jedis jedis) {
        return jedis.clusterSlots();
    }

    /** Who serves what, as one node sees it, in a form two nodes' views can be compared in. */
    private static String slotOwners(Jedis jedis) {
        List<String> ranges = new ArrayList<>();
        for (Object range : clusterSlots(jedis)) {
            List<?> r = (List<?>) range;
            ranges.add(r.get(0) + "-" + r.get(1) + "@" + ((List<?>) r.get(2)).get(1));
        }
        ranges.sort(null);
        return String.join(",", ranges);
    }

    private RedisServer nodeOnPort(int port) {
        for (RedisServer node : nodes) {
            if (node.port() == port) {
                return node;
            }
        }
        throw new RedisServerException("no node of " + this + " listens on port " + port);
    }

    private static String role(RedisServer node) {
        try (Jedis jedis = connect(node)) {
            return jedis.info("replication").contains("role:master") ? "master" : "replica";
        } catch (JedisException e) {
            return "unreachable";
        }
    }

    private static Jedis connect(RedisServer node) {
        return node.backend().connect(TIMEOUT_MILLIS);
    }

    private static void checkSlot(int slot) {
        if (slot < 0 || slot >= SLOTS) {
            throw new IllegalArgumentException("slot must be in 0.." + (SLOTS - 1) + ": " + slot);
        }
    }

    private static void await(Duration timeout, String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new RedisServerException("the cluster did not " + what + " within " + timeout);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RedisServerException("interrupted while waiting for the cluster to " + what, e);
            }
        }
    }

    /** Configures and starts a {@link RedisCluster}. Setters validate eagerly. */
    public static final class Builder {
        private int masters = 3;
        private int replicasPerMaster;
        private Duration nodeTimeout = Duration.ofSeconds(2);
        private Duration startupTimeout = Duration.ofSeconds(30);

        private Builder() {}

        /** Primaries sharing the slots evenly; 1 to 16. Default 3. */
        public Builder masters(int masters) {
            if (masters < 1 || masters > 16) {
                throw new IllegalArgumentException("masters must be in 1..16: " + masters);
            }
            this.masters = masters;
            return this;
        }

        /** Replicas of each master; 0 to 4. Default 0. A master whose replica is promoted may fail over. */
        public Builder replicasPerMaster(int replicas) {
            if (replicas < 0 || replicas > 4) {
                throw new IllegalArgumentException("replicas per master must be in 0..4: " + replicas);
            }
            this.replicasPerMaster = replicas;
            return this;
        }

        /**
         * {@code cluster-node-timeout}: how long a node may not answer before it counts as failing and
         * its replica takes over. Default 2 s; at least 100 ms.
         */
        public Builder nodeTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "node timeout");
            if (timeout.toMillis() < 100) {
                throw new IllegalArgumentException("node timeout must be at least 100 ms: " + timeout);
            }
            this.nodeTimeout = timeout;
            return this;
        }

        /** How long {@link #start()} waits for the cluster to form. Default 30 s. */
        public Builder startupTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "startup timeout");
            if (timeout.isZero() || timeout.isNegative()) {
                throw new IllegalArgumentException("startup timeout must be positive: " + timeout);
            }
            this.startupTimeout = timeout;
            return this;
        }

        /**
         * Starts every node and forms the cluster; returns once it is healthy.
         *
         * @throws RedisServerException if a node does not start or the cluster does not form in time;
         *     the nodes already started are killed
         */
        public RedisCluster start() {
            return start(false);
        }

        private RedisCluster start(boolean shared) {
            List<RedisServer> nodes = new ArrayList<>();
            try {
                int total = masters * (1 + replicasPerMaster);
                for (int i = 0; i < total; i++) {
                    nodes.add(RedisServer.builder()
                            .requireProcessControl()
                            .startupTimeout(startupTimeout)
                            .config("cluster-enabled", "yes")
                            .config("cluster-config-file", "nodes.conf")
                            .config("cluster-node-timeout", Long.toString(nodeTimeout.toMillis()))
                            // a replica takes over however long its link was down: tests kill and restart
                            .config("cluster-replica-validity-factor", "0")
                            .start());
                }
                RedisCluster cluster = new RedisCluster(nodes, nodeTimeout, startupTimeout, shared);
                form(nodes);
                cluster.awaitHealthy(startupTimeout);
                LOG.info(
                        "Redis Cluster of {} masters and {} replicas each, from port {}",
                        masters,
                        replicasPerMaster,
                        nodes.get(0).port());
                return cluster;
            } catch (RuntimeException e) {
                nodes.forEach(RedisServer::close);
                throw e;
            }
        }

        private void form(List<RedisServer> nodes) {
            RedisServer first = nodes.get(0);
            for (int m = 0; m < masters; m++) {
                int from = m * SLOTS / masters;
                int to = (m + 1) * SLOTS / masters;
                try (Jedis jedis = connect(nodes.get(m))) {
                    jedis.clusterSetConfigEpoch(m + 1);
                    jedis.clusterAddSlots(IntStream.range(from, to).toArray());
                }
            }
            try (Jedis jedis = connect(first)) {
                for (RedisServer node : nodes.subList(1, nodes.size())) {
                    jedis.clusterMeet(node.host(), node.port());
                }
            }
            await(startupTimeout, "meet all its nodes", () -> {
                for (RedisServer node : nodes) {
                    try (Jedis jedis = connect(node)) {
                        if (!jedis.clusterInfo().contains("cluster_known_nodes:" + nodes.size() + "\r\n")) {
                            return false;
                        }
                    }
                }
                return true;
            });
            for (int r = masters; r < nodes.size(); r++) {
                RedisServer master = nodes.get((r - masters) % masters);
                String masterId;
                try (Jedis jedis = connect(master)) {
                    masterId = jedis.clusterMyId();
                }
                try (Jedis jedis = connect(nodes.get(r))) {
                    jedis.clusterReplicate(masterId);
                }
            }
        }
    }
}
