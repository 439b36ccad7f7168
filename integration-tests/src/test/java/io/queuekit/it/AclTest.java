package io.queuekit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.DelayQueue;
import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import io.queuekit.TransportException;
import io.queuekit.redis.pubsub.RedisBroadcaster;
import io.queuekit.redis.pubsub.RedisBroadcaster.RedisSubscription;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;

/**
 * A Redis ACL user that may touch only its own queue's keys and channel, and run only the
 * commands queuekit sends (and those its Lua scripts call, which Redis checks too), runs the list
 * queue in both modes, the delay queue and the broadcaster. A user without those rights gets a
 * {@link TransportException} naming NOPERM.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AclTest {
    /** Commands queuekit sends itself, and those its Lua scripts call. */
    static final List<String> COMMANDS = List.of(
            // the pool's connection check (AUTH and HELLO need no grant)
            "ping",
            // the Lua scripts, sent by SHA and in full after a NOSCRIPT
            "evalsha",
            "eval",
            // the list queue's sends and takes (BLMOVE/LMOVE at-least-once, BRPOP/RPOP at-most-once);
            // the delay queue's wait (BLPOP)
            "lpush",
            "rpush",
            "blmove",
            "lmove",
            "brpop",
            "rpop",
            "blpop",
            // broadcasts
            "publish",
            "subscribe",
            "unsubscribe",
            // called from the scripts
            "time",
            "incr",
            "incrby",
            "get",
            "set",
            "type",
            "exists",
            "hset",
            "hget",
            "hmget",
            "hdel",
            "hexists",
            "hincrby",
            "llen",
            "lrange",
            "lindex",
            "lset",
            "lrem",
            "ltrim",
            "lpos",
            "hlen",
            "zadd",
            "zrem",
            "zcard",
            "zcount",
            "zscore",
            "zmscore",
            "zrange",
            "zrangebyscore",
            "zrevrangebyscore");

    /** The rules of the user {@code orders}, as one redis.conf / ACL file line after "user orders". */
    static final String ORDERS_RULES =
            "on >orders-secret resetkeys ~queuekit:{orders}:* resetchannels " + "&queuekit:{orders} -@all "
                    + String.join(" ", COMMANDS.stream().map(c -> "+" + c).toList());

    private static RedisServer server;
    private static RedisClient admin;

    @BeforeAll
    static void start() {
        server = RedisServer.builder()
                .requireProcessControl()
                .config("user", "orders " + ORDERS_RULES)
                .config(
                        "user",
                        "sharded " + ORDERS_RULES.replace(">orders-secret", ">sharded-secret")
                                + " ~queuekit:{orders~*}:*")
                .config(
                        "user",
                        "intruder on >intruder-secret resetkeys ~queuekit:{payments}:* resetchannels "
                                + "&queuekit:{payments} -@all "
                                + String.join(
                                        " ", COMMANDS.stream().map(c -> "+" + c).toList()))
                .config(
                        "user",
                        "patterns " + ORDERS_RULES.replace(">orders-secret", ">patterns-secret")
                                + " &queuekit:{ord*} +psubscribe +punsubscribe")
                .config(
                        "user",
                        "scriptless on >scriptless-secret resetkeys ~queuekit:{orders}:* resetchannels "
                                + "&queuekit:{orders} -@all +hello +ping +evalsha +eval +blmove +lpush +rpop +brpop")
                .start();
        admin = RedisClients.builder(server).poolSize(2).build();
        System.out.println("ACL line for docs/reliability-and-security.md:\nuser orders "
                + ORDERS_RULES.replace(">orders-secret", ">CHANGE-ME"));
    }

    @AfterAll
    static void stop() {
        admin.close();
        server.close();
    }

    private static RedisClient clientAs(String user, String password) {
        ConnectionPoolConfig pool = RedisClients.poolConfig(8);
        pool.setTestOnBorrow(true); // PINGs every borrowed connection, so PING is covered too
        return RedisClients.builder(server)
                .configure(c -> c.user(user).password(password))
                .pool(pool)
                .build();
    }

    static Stream<Arguments> transportsAndShards() {
        return Stream.of(Transport.values()).flatMap(t -> Stream.of(Arguments.of(t, 1), Arguments.of(t, 3)));
    }

    /**
     * Unsharded, as user {@code orders}; in three shards, as user {@code sharded}, whose rules add
     * the shards' tags (the queue records its number of shards under its own tag).
     */
    @ParameterizedTest(name = "{0}, shards({1})")
    @MethodSource("transportsAndShards")
    void restrictedUser_runsEveryQueueOperation(Transport transport, int shards) throws Exception {
        resetAclLog();
        // the user may touch one queue name; the transports keep their messages in different layouts
        deleteKeys("queuekit:{orders[}~]*");
        String user = shards == 1 ? "orders" : "sharded";
        try (RedisClient client = clientAs(user, user + "-secret");
                MessageQueue<String> q = transport.build(
                        client,
                        "orders",
                        Codec.utf8(),
                        b -> b.shards(shards)
                                .blockTimeout(Duration.ofMillis(100))
                                .visibilityTimeout(Duration.ofMillis(300))
                                .maxAttempts(2))) {
            q.send("a");
            q.sendAll(List.of("b", "c", "d"));
            assertThat(q.poll().ack()).isTrue();
            q.poll(1, TimeUnit.SECONDS).retry(Duration.ZERO);
            q.poll(1, TimeUnit.SECONDS).retry(Duration.ofMillis(50));
            q.poll(1, TimeUnit.SECONDS).deadLetter("for the test");
            for (Delivery<String> d : q.pollBatch(10, 1, TimeUnit.SECONDS)) {
                d.ack();
            }
            for (Delivery<String> d; (d = q.poll(300, TimeUnit.MILLISECONDS)) != null; ) {
                d.ack(); // the retry delayed by 50 ms; then the wait ends empty, blocked in Redis meanwhile
            }
            q.stats();
            assertThat(q.deadLetters().list(10)).isNotEmpty();
            q.deadLetters().requeueAll();
            if (q instanceof DelayQueue<String> d) {
                assertThat(d.cancel(d.schedule("later", Duration.ofMinutes(1)))).isTrue();
            }
            Set<String> consumed = ConcurrentHashMap.newKeySet();
            q.consume(
                    x -> consumed.add(x.payload()),
                    ConsumeOptions.builder().pollTimeout(Duration.ofMillis(200)).build());
            q.send("e");
            await().atMost(Duration.ofSeconds(10)).until(() -> consumed.contains("e"));
        }
        assertThat(admin.get("queuekit:{orders}:shards")).isEqualTo(String.valueOf(shards));
        assertThat(aclLog()).as("commands Redis refused to the user").doesNotContain(user);
    }

    @Test
    void restrictedUser_publishesAndSubscribes() {
        resetAclLog();
        try (RedisClient client = clientAs("orders", "orders-secret");
                RedisBroadcaster<String> b = RedisBroadcaster.builder(client, "orders", Codec.utf8())
                        .keepAliveInterval(Duration.ofMillis(200))
                        .build()) {
            Set<String> heard = ConcurrentHashMap.newKeySet();
            RedisSubscription s = b.subscribe(heard::add);
            assertThat(b.publish("hello")).isEqualTo(1);
            b.publishAll(List.of("x", "y"));
            await().atMost(Duration.ofSeconds(5)).until(() -> heard.containsAll(List.of("hello", "x", "y")));
            await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(s::isConnected);
            s.close();
        }
        assertThat(aclLog()).doesNotContain("orders");
    }

    /** Pattern subscriptions need PSUBSCRIBE and the pattern itself, literally, as a channel rule. */
    @Test
    void patternSubscription_needsThePatternGrantedLiterally() {
        try (RedisClient client = clientAs("patterns", "patterns-secret");
                RedisBroadcaster<String> b =
                        RedisBroadcaster.builder(client, "orders", Codec.utf8()).build()) {
            Set<String> heard = ConcurrentHashMap.newKeySet();
            RedisSubscription s = b.subscribePattern("ord*", (channel, m) -> heard.add(channel + ":" + m));
            b.publish("p");
            await().atMost(Duration.ofSeconds(5)).until(() -> heard.contains("orders:p"));
            s.close();
            assertThatThrownBy(() -> b.subscribePattern("*", (channel, m) -> {}))
                    .isInstanceOf(TransportException.class)
                    .hasMessageContaining("NOPERM");
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transport.class)
    void userWithoutRightsToTheKeys_getsNoperm(Transport transport) throws Exception {
        try (RedisClient client = clientAs("intruder", "intruder-secret");
                MessageQueue<String> q = transport.build(client, "vault", Codec.utf8(), b -> b)) {
            assertThatThrownBy(() -> q.send("x"))
                    .isInstanceOf(TransportException.class)
                    .hasMessageContaining("vault")
                    .hasMessageContaining("NOPERM");
            assertThatThrownBy(() -> q.poll(100, TimeUnit.MILLISECONDS))
                    .isInstanceOf(TransportException.class)
                    .hasMessageContaining("NOPERM");
            assertThatThrownBy(q::stats).isInstanceOf(TransportException.class).hasMessageContaining("NOPERM");
        }
        assertThat(admin.keys("queuekit:{vault}:*"))
                .as("keys the intruder created")
                .isEmpty();
    }

    @Test
    void userWithoutRightsToTheChannel_getsNoperm() {
        try (RedisClient client = clientAs("intruder", "intruder-secret");
                RedisBroadcaster<String> b = RedisBroadcaster.builder(client, "vault", Codec.utf8())
                        .subscribeTimeout(Duration.ofSeconds(3))
                        .build()) {
            assertThatThrownBy(() -> b.publish("x"))
                    .isInstanceOf(TransportException.class)
                    .hasMessageContaining("NOPERM");
            assertThatThrownBy(() -> b.subscribe(m -> {}))
                    .isInstanceOf(TransportException.class)
                    .hasMessageContaining("NOPERM");
        }
    }

    /** The scripts' own commands are checked by Redis too: EVALSHA alone is not enough. */
    @Test
    void userAllowedEvalButNotTheScriptsCommands_getsNoperm() {
        try (RedisClient client = clientAs("scriptless", "scriptless-secret");
                MessageQueue<String> q = Transport.ZSET.build(client, "orders", Codec.utf8(), b -> b)) {
            // the object's first script checks its number of shards (GET, SET), as part of the send
            assertThatThrownBy(() -> q.send("x"))
                    .isInstanceOf(TransportException.class)
                    .hasMessageContaining("send failed")
                    .hasMessageContaining("can't run this command"); // Redis 7.0's wording for NOPERM in scripts
        }
    }

    private static void deleteKeys(String pattern) {
        Set<String> left = admin.keys(pattern);
        if (!left.isEmpty()) {
            admin.del(left.toArray(String[]::new));
        }
    }

    private static void resetAclLog() {
        try (Jedis j = new Jedis(server.host(), server.port())) {
            j.aclLogReset();
        }
    }

    /** The users and commands Redis refused since the last reset. */
    private static String aclLog() {
        try (Jedis j = new Jedis(server.host(), server.port())) {
            return j.aclLog().stream()
                    .map(e -> e.getUsername() + " " + e.getReason() + " " + e.getObject())
                    .toList()
                    .toString();
        }
    }
}
