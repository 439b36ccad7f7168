package io.queuekit.redis.internal;

import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.RedisSentinelClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.providers.ClusterConnectionProvider;
import redis.clients.jedis.providers.ConnectionProvider;
import redis.clients.jedis.providers.PooledConnectionProvider;
import redis.clients.jedis.providers.SentineledConnectionProvider;
import redis.clients.jedis.util.Pool;

/**
 * The one place that knows the Jedis generations queuekit runs on (7.0 to 8): what kind of client a
 * {@link UnifiedJedis} is, the operations the transports need on each kind, and clients built from
 * settings. Jedis 7.0 has {@code JedisPooled} and {@code JedisSentineled}, Jedis 8 {@code RedisClient},
 * {@code RedisSentinelClient} and {@code RedisClusterClient}, 7.4 both; {@code JedisCluster} is in all.
 *
 * <p>Easy to get wrong: no code outside this class may name a class one generation lacks, not even in an
 * {@code instanceof}, since the JVM then fails on the other generation with {@code NoClassDefFoundError}.
 * A client's kind is read from its class's name and its connection provider, whose classes and methods
 * every generation shares; the classes of Jedis 8 are named only in {@link Newest}, loaded when they are
 * there. Reflection reads only the provider, a protected field of every {@code UnifiedJedis}.
 */
public final class JedisClient {

    /** What a client is, as far as the transports care. */
    public enum Kind {
        /** {@code RedisClient} or {@code JedisPooled}: one pool to one server. */
        STANDALONE,
        /** {@code RedisSentinelClient} or {@code JedisSentineled}: one pool to the current primary. */
        SENTINEL,
        /** {@code RedisClusterClient} or {@code JedisCluster}. */
        CLUSTER,
        /** Any other client, a plain {@code UnifiedJedis} included: Jedis lends its connections. */
        OTHER
    }

    private static final String PACKAGE = "redis.clients.jedis.";
    /** Whether Jedis has the client classes of Jedis 8 (from 7.4 on); they are preferred when it does. */
    private static final boolean NEWEST = present(PACKAGE + "RedisClient");

    private static final Field PROVIDER = accessible(UnifiedJedis.class, "provider");
    /**
     * Jedis 7.0's Sentinel provider keeps the primary's pool to itself; later ones hand it out. (7.0's
     * provider inherits a default {@code getPrimaryNodesConnectionMap} that maps to a new connection.)
     */
    private static final boolean SENTINEL_POOL_PUBLIC =
            declares(SentineledConnectionProvider.class, "getPrimaryNodesConnectionMap");

    private static final boolean NEGOTIATES_PROTOCOL =
            hasMethod(DefaultJedisClientConfig.Builder.class, "autoNegotiateProtocol", boolean.class);

    private static final ClassValue<Kind> KIND_OF_CLASS = new ClassValue<>() {
        @Override
        protected Kind computeValue(Class<?> type) {
            for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                switch (c.getName()) {
                    case PACKAGE + "RedisClient", PACKAGE + "JedisPooled" -> {
                        return Kind.STANDALONE;
                    }
                    case PACKAGE + "RedisSentinelClient", PACKAGE + "JedisSentineled" -> {
                        return Kind.SENTINEL;
                    }
                    case PACKAGE + "RedisClusterClient", PACKAGE + "JedisCluster" -> {
                        return Kind.CLUSTER;
                    }
                    default -> {}
                }
            }
            return Kind.OTHER;
        }
    };

    private final UnifiedJedis client;
    private final Kind kind;
    private final ConnectionProvider provider;

    private JedisClient(UnifiedJedis client, Kind kind, ConnectionProvider provider) {
        this.client = client;
        this.kind = kind;
        this.provider = provider;
    }

    /** What {@code client} is; {@link Kind#OTHER} also for a client class on a provider of another kind. */
    public static JedisClient of(UnifiedJedis client) {
        Kind byClass = KIND_OF_CLASS.get(client.getClass());
        if (byClass == Kind.OTHER || PROVIDER == null) {
            return new JedisClient(client, Kind.OTHER, null);
        }
        ConnectionProvider provider;
        try {
            provider = (ConnectionProvider) PROVIDER.get(client);
        } catch (IllegalAccessException e) {
            return new JedisClient(client, Kind.OTHER, null);
        }
        boolean fits = switch (byClass) {
            case STANDALONE -> provider instanceof PooledConnectionProvider;
            case SENTINEL -> provider instanceof SentineledConnectionProvider;
            case CLUSTER -> provider instanceof ClusterConnectionProvider;
            case OTHER -> false;
        };
        return new JedisClient(client, fits ? byClass : Kind.OTHER, fits ? provider : null);
    }

    public Kind kind() {
        return kind;
    }

    /** The pool of a {@link Kind#STANDALONE} client. */
    public Pool<Connection> pool() {
        return ((PooledConnectionProvider) require(Kind.STANDALONE)).getPool();
    }

    /**
     * Whether {@link #primaryPools()} can reach the pool of a {@link Kind#SENTINEL} client's primary: not on
     * Jedis 7.0, which keeps it to itself.
     */
    public boolean reachesPrimaryPool() {
        return kind == Kind.SENTINEL && SENTINEL_POOL_PUBLIC;
    }

    /** The pool of a {@link Kind#SENTINEL} client's current primary, as a list of one; see {@link #reachesPrimaryPool()}. */
    public List<Pool<Connection>> primaryPools() {
        SentineledConnectionProvider sentinel = (SentineledConnectionProvider) require(Kind.SENTINEL);
        if (!SENTINEL_POOL_PUBLIC) {
            throw new UnsupportedOperationException(
                    "this Jedis does not hand out the pool of a Sentinel client's primary");
        }
        return List.copyOf(sentinel.getPrimaryNodesConnectionMap().values());
    }

    /** The address of a {@link Kind#SENTINEL} client's current primary. */
    public HostAndPort currentPrimary() {
        return ((SentineledConnectionProvider) require(Kind.SENTINEL)).getCurrentMaster();
    }

    /** The pools of a {@link Kind#CLUSTER} client's nodes, by {@code host:port}. */
    public Map<String, ConnectionPool> clusterNodes() {
        return cluster().getNodes();
    }

    /** Asks a {@link Kind#CLUSTER} client to learn again which master serves which slot. */
    public void refreshSlots() {
        cluster().renewSlotCache();
    }

    /** A connection of a {@link Kind#CLUSTER} client to the master serving {@code slot}; the caller closes it. */
    public Connection connectionToSlot(int slot) {
        return cluster().getConnectionFromSlot(slot);
    }

    /**
     * The master of {@code slot} as a {@link Kind#CLUSTER} client knows it, named as in {@link #clusterNodes()};
     * null if it knows none. (Jedis 7 keeps a connection's address to itself.)
     */
    public HostAndPort masterOf(int slot) {
        return cluster().getNode(slot);
    }

    /** {@code SPUBLISH} on a {@link Kind#CLUSTER} client, sent to the master of the channel's slot. */
    @SuppressWarnings("deprecation") // JedisCluster: deprecated in Jedis 8, the cluster client of Jedis 7.0
    public long spublish(byte[] channel, byte[] message) {
        require(Kind.CLUSTER);
        return client instanceof JedisCluster c
                ? c.spublish(channel, message)
                : Newest.spublish(client, channel, message);
    }

    private ClusterConnectionProvider cluster() {
        return (ClusterConnectionProvider) require(Kind.CLUSTER);
    }

    private ConnectionProvider require(Kind wanted) {
        if (kind != wanted) {
            throw new IllegalStateException(
                    "not a " + wanted + " client: " + client.getClass().getName());
        }
        return provider;
    }

    /** A pooled client of one server: a {@code RedisClient}, or a {@code JedisPooled} on Jedis 7.0. */
    public static UnifiedJedis standalone(
            HostAndPort address, JedisClientConfig config, GenericObjectPoolConfig<Connection> pool) {
        if (NEWEST) {
            return Newest.standalone(address, config, pool);
        }
        return construct(
                "JedisPooled",
                new Class<?>[] {HostAndPort.class, JedisClientConfig.class, GenericObjectPoolConfig.class},
                address,
                config,
                pool);
    }

    /**
     * A client of the primary that the Sentinels name: a {@code RedisSentinelClient}, or a
     * {@code JedisSentineled} on Jedis 7.0.
     */
    public static UnifiedJedis sentinel(
            String primary,
            Set<HostAndPort> sentinels,
            JedisClientConfig config,
            JedisClientConfig sentinelConfig,
            GenericObjectPoolConfig<Connection> pool) {
        if (NEWEST) {
            return Newest.sentinel(primary, sentinels, config, sentinelConfig, pool);
        }
        return construct(
                "JedisSentineled",
                new Class<?>[] {
                    String.class,
                    JedisClientConfig.class,
                    GenericObjectPoolConfig.class,
                    Set.class,
                    JedisClientConfig.class
                },
                primary,
                config,
                pool,
                sentinels,
                sentinelConfig);
    }

    /**
     * A cluster client: a {@code RedisClusterClient}, or a {@code JedisCluster} on Jedis 7.0.
     *
     * @param maxAttempts tries of a command, redirections included; null for Jedis' default
     */
    @SuppressWarnings("deprecation") // JedisCluster: deprecated in Jedis 8, the cluster client of Jedis 7.0
    public static UnifiedJedis cluster(
            Set<HostAndPort> nodes,
            JedisClientConfig config,
            GenericObjectPoolConfig<Connection> pool,
            Integer maxAttempts) {
        if (NEWEST) {
            return Newest.cluster(nodes, config, pool, maxAttempts);
        }
        return new JedisCluster(
                nodes, config, maxAttempts != null ? maxAttempts : JedisCluster.DEFAULT_MAX_ATTEMPTS, pool);
    }

    /**
     * Makes {@code config} speak RESP2 without a {@code HELLO}: Jedis 8 negotiates the protocol unless
     * told not to, Jedis 7 never does. For connections to Sentinels, whose own clients in Jedis speak RESP2.
     */
    public static DefaultJedisClientConfig.Builder withoutProtocolNegotiation(DefaultJedisClientConfig.Builder config) {
        return NEGOTIATES_PROTOCOL ? config.autoNegotiateProtocol(false) : config;
    }

    /** Whether {@code uri} names a database ({@code redis://host:port/2}), as Jedis 8's {@code JedisURIHelper.hasDbIndex}. */
    public static boolean hasDbIndex(URI uri) {
        String path = uri.getPath();
        return path != null && path.length() > 1;
    }

    private static UnifiedJedis construct(String simpleName, Class<?>[] parameters, Object... arguments) {
        try {
            return Class.forName(PACKAGE + simpleName)
                    .asSubclass(UnifiedJedis.class)
                    .getConstructor(parameters)
                    .newInstance(arguments);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause; // Jedis' own failure: could not reach the server, bad settings
            }
            throw new JedisException("could not make a " + simpleName + ": " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(
                    "this Jedis has neither RedisClient nor " + simpleName + ": queuekit runs on Jedis 7.0 to 8", e);
        }
    }

    private static boolean present(String className) {
        try {
            Class.forName(className, false, JedisClient.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static boolean hasMethod(Class<?> type, String name, Class<?>... parameters) {
        try {
            type.getMethod(name, parameters);
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static boolean declares(Class<?> type, String name) {
        try {
            return type.getMethod(name).getDeclaringClass() == type;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /** The field made readable, or null if this Jedis has no such field or will not open it. */
    private static Field accessible(Class<?> type, String name) {
        try {
            Field field = type.getDeclaredField(name);
            field.setAccessible(true);
            return field;
        } catch (NoSuchFieldException | RuntimeException e) {
            return null;
        }
    }

    /** The client classes of Jedis 7.4 and later; loaded, and so are they, only on such a Jedis. */
    private static final class Newest {
        private Newest() {}

        static UnifiedJedis standalone(
                HostAndPort address, JedisClientConfig config, GenericObjectPoolConfig<Connection> pool) {
            return RedisClient.builder()
                    .hostAndPort(address)
                    .clientConfig(config)
                    .poolConfig(pool)
                    .build();
        }

        static UnifiedJedis sentinel(
                String primary,
                Set<HostAndPort> sentinels,
                JedisClientConfig config,
                JedisClientConfig sentinelConfig,
                GenericObjectPoolConfig<Connection> pool) {
            return RedisSentinelClient.builder()
                    .masterName(primary)
                    .sentinels(sentinels)
                    .clientConfig(config)
                    .sentinelClientConfig(sentinelConfig)
                    .poolConfig(pool)
                    .build();
        }

        static UnifiedJedis cluster(
                Set<HostAndPort> nodes,
                JedisClientConfig config,
                GenericObjectPoolConfig<Connection> pool,
                Integer maxAttempts) {
            var cluster = RedisClusterClient.builder()
                    .nodes(nodes)
                    .clientConfig(config)
                    .poolConfig(pool);
            if (maxAttempts != null) {
                cluster.maxAttempts(maxAttempts);
            }
            return cluster.build();
        }

        static long spublish(UnifiedJedis client, byte[] channel, byte[] message) {
            return ((RedisClusterClient) client).spublish(channel, message);
        }
    }
}
