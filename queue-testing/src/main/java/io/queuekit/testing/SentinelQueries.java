package io.queuekit.testing;

import java.util.List;
import java.util.Map;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * What the Sentinels and the data nodes of a {@link RedisSentinelGroup} say: which node is primary,
 * whether it takes writes, whether a replica is linked. Each answer is asked afresh; nothing is kept.
 */
final class SentinelQueries {
    private static final int TIMEOUT_MILLIS = 2_000;
    /** Deleted to check that a node takes writes: a replica refuses DEL, a primary stores nothing. */
    private static final String PROBE_KEY = "queuekit:sentinel-group:probe";

    private final String masterName;
    private final List<RedisServer> nodes;
    private final List<RedisServer> sentinels;
    /** Named in messages. */
    private final Object group;

    SentinelQueries(String masterName, List<RedisServer> nodes, List<RedisServer> sentinels, Object group) {
        this.masterName = masterName;
        this.nodes = nodes;
        this.sentinels = sentinels;
        this.group = group;
    }

    /** The data node the Sentinels name as primary now. */
    RedisServer primary() {
        JedisException failure = null;
        for (RedisServer sentinel : sentinels) {
            if (!sentinel.isRunning()) {
                continue;
            }
            try (Jedis jedis = connect(sentinel)) {
                return nodeAt(jedis.sentinelGetMasterAddrByName(masterName));
            } catch (JedisException e) {
                failure = e; // a Sentinel going down: ask the next
            }
        }
        throw new RedisServerException("no Sentinel of " + group + " names the primary", failure);
    }

    /** Every Sentinel knows the {@code others} and sees the replica healthy: a failover can then be agreed. */
    boolean formed(RedisServer primary, RedisServer replica, int others) {
        for (RedisServer sentinel : sentinels) {
            try (Jedis jedis = connect(sentinel)) {
                Map<String, String> master = jedis.sentinelMaster(masterName);
                if (!"master".equals(master.get("flags"))
                        || !Integer.toString(others).equals(master.get("num-other-sentinels"))) {
                    return false;
                }
            } catch (JedisException e) {
                return false;
            }
        }
        return replicaHealthy(replica, primary);
    }

    /** The primary if every running Sentinel names it and it takes writes, else null. */
    RedisServer writablePrimary() {
        List<String> agreed = null;
        for (RedisServer sentinel : sentinels) {
            if (!sentinel.isRunning()) {
                continue;
            }
            try (Jedis jedis = connect(sentinel)) {
                List<String> named = jedis.sentinelGetMasterAddrByName(masterName);
                if (agreed != null && !agreed.equals(named)) {
                    return null;
                }
                agreed = named;
            } catch (JedisException e) {
                return null;
            }
        }
        if (agreed == null) {
            return null;
        }
        RedisServer primary = nodeAt(agreed);
        if (!primary.isRunning()) {
            return null;
        }
        try (Jedis jedis = connect(primary)) {
            jedis.del(PROBE_KEY);
            return primary;
        } catch (JedisException e) {
            return null; // READONLY while it is still a replica, or not up yet
        }
    }

    /** Whether every running Sentinel lists {@code replica} as a replica of {@code primary} with its link up. */
    boolean replicaHealthy(RedisServer replica, RedisServer primary) {
        for (RedisServer sentinel : sentinels) {
            if (!sentinel.isRunning()) {
                continue;
            }
            try (Jedis jedis = connect(sentinel)) {
                if (!listsHealthyReplica(jedis.sentinelReplicas(masterName), replica, primary)) {
                    return false;
                }
            } catch (JedisException e) {
                return false;
            }
        }
        return true;
    }

    private static boolean listsHealthyReplica(
            List<Map<String, String>> replicas, RedisServer replica, RedisServer primary) {
        for (Map<String, String> r : replicas) {
            if (Integer.toString(replica.port()).equals(r.get("port"))) {
                return "slave".equals(r.get("flags"))
                        && "ok".equals(r.get("master-link-status"))
                        && Integer.toString(primary.port()).equals(r.get("master-port"));
            }
        }
        return false;
    }

    private RedisServer nodeAt(List<String> address) {
        if (address == null || address.size() != 2) {
            throw new RedisServerException("the Sentinels of " + group + " do not monitor " + masterName);
        }
        int port = Integer.parseInt(address.get(1));
        for (RedisServer node : nodes) {
            if (node.port() == port) {
                return node;
            }
        }
        throw new RedisServerException("the Sentinels of " + group + " name port " + port + " as primary,"
                + " which is none of its data nodes");
    }

    RedisServer runningSentinel() {
        for (RedisServer sentinel : sentinels) {
            if (sentinel.isRunning()) {
                return sentinel;
            }
        }
        throw new RedisServerException("no Sentinel of " + group + " is running");
    }

    static boolean linkUp(RedisServer replica) {
        try (Jedis jedis = connect(replica)) {
            return jedis.info("replication").contains("master_link_status:up");
        } catch (JedisException e) {
            return false;
        }
    }

    static Jedis connect(RedisServer server) {
        return server.backend().connect(TIMEOUT_MILLIS);
    }
}
