package io.queuekit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import io.queuekit.TransportException;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;

/**
 * {@code replicas(n, timeout)}: a send (and an at-least-once ack) returns only once a replica
 * holds it, throws when none acknowledges in time, and what returned survives the primary's
 * death and the replica's promotion.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ReplicaAcknowledgementTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    // long enough that a replica in sync answers on a loaded 2-core machine running two test JVMs (300 ms was not)
    private static final Duration REPLICA_TIMEOUT = Duration.ofMillis(1_000);

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transport.class)
    void withoutAReplica_sendsAndAcksThrow_sayingSo_andKeepWhatThePrimaryStored(Transport transport) throws Exception {
        try (RedisServer primary = RedisServer.builder()
                        .requireProcessControl()
                        .config("repl-diskless-sync-delay", "0")
                        .start();
                RedisServer replica = replicaOf(primary);
                Jedis replicaAdmin = new Jedis(replica.host(), replica.port());
                // a WAIT is read with the command timeout, which must outlast the replica timeout
                RedisClient client = RedisClients.builder(primary)
                        .poolSize(4)
                        .socketTimeout(Duration.ofSeconds(3))
                        .build();
                MessageQueue<String> q =
                        transport.build(client, "acked", Codec.utf8(), b -> b.replicas(1, REPLICA_TIMEOUT))) {
            q.send("replicated");
            Delivery<String> held = q.poll(5, TimeUnit.SECONDS);
            assertThat(held.payload()).isEqualTo("replicated");

            replicaAdmin.replicaofNoOne();

            assertThatThrownBy(() -> q.send("on the primary only"))
                    .isInstanceOf(TransportException.class)
                    .hasMessageContaining("send")
                    .hasMessageContaining(
                            "written on the primary, but only 0 of 1 replica acknowledged it within 1000 ms");
            if (transport.atLeastOnce()) {
                assertThatThrownBy(held::ack)
                        .isInstanceOf(TransportException.class)
                        .hasMessageContaining("ack")
                        .hasMessageContaining("0 of 1 replica");
            }
            Delivery<String> kept = q.poll(5, TimeUnit.SECONDS);
            assertThat(kept)
                    .as("the send that threw stored its message on the primary")
                    .isNotNull();
            assertThat(kept.payload()).isEqualTo("on the primary only");
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transport.class)
    void everySendThatReturned_survivesThePrimarysDeath_onThePromotedReplica(Transport transport) throws Exception {
        Set<String> acknowledged = new HashSet<>();
        try (RedisServer primary = RedisServer.builder()
                        .requireProcessControl()
                        .config("repl-diskless-sync-delay", "0")
                        .start();
                RedisServer replica = replicaOf(primary)) {
            try (RedisClient client = RedisClients.builder(primary).poolSize(4).build();
                    MessageQueue<String> q = transport.build(
                            client, "survives", Codec.utf8(), b -> b.replicas(1, Duration.ofMillis(800)))) {
                for (int i = 0; i < 2_000; i++) {
                    q.send("m" + i);
                    acknowledged.add("m" + i);
                }
            }

            primary.kill();
            try (Jedis admin = new Jedis(replica.host(), replica.port())) {
                admin.replicaofNoOne();
            }

            Set<String> received = new HashSet<>();
            try (RedisClient client = RedisClients.builder(replica).poolSize(4).build();
                    MessageQueue<String> q = transport.build(client, "survives", Codec.utf8(), b -> b)) {
                for (Delivery<String> d; (d = q.poll(500, TimeUnit.MILLISECONDS)) != null; ) {
                    received.add(d.payload());
                    d.ack();
                }
            }
            assertThat(received).isEqualTo(acknowledged);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transport.class)
    void badReplicaSettings_areRefused_namingTheProblem(Transport transport) {
        try (RedisClient client = RedisClient.create("redis://127.0.0.1:1")) {
            assertThatThrownBy(() -> transport.build(client, "bad", Codec.utf8(), b -> b.replicas(-1, REPLICA_TIMEOUT)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("replicas");
            assertThatThrownBy(
                            () -> transport.build(client, "bad", Codec.utf8(), b -> b.replicas(101, REPLICA_TIMEOUT)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("replicas");
            assertThatThrownBy(() -> transport.build(client, "bad", Codec.utf8(), b -> b.replicas(1, null)))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("replica timeout");
            assertThatThrownBy(() -> transport.build(client, "bad", Codec.utf8(), b -> b.replicas(1, Duration.ZERO)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("replica timeout");
            assertThatThrownBy(() ->
                            transport.build(client, "bad", Codec.utf8(), b -> b.replicas(1, Duration.ofSeconds(61))))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("replica timeout");
        }
    }

    /** A replica of {@code primary}, returned once its link is up and the primary counts it. */
    private static RedisServer replicaOf(RedisServer primary) {
        RedisServer replica = RedisServer.builder()
                .requireProcessControl()
                .config("replicaof", primary.host() + " " + primary.port())
                .start();
        try (Jedis admin = new Jedis(replica.host(), replica.port());
                Jedis primaryAdmin = new Jedis(primary.host(), primary.port())) {
            await().atMost(WAIT).until(() -> admin.info("replication").contains("master_link_status:up"));
            // and the primary counts it: a WAIT of its own is answered
            await().atMost(WAIT).until(() -> primaryAdmin.waitReplicas(1, 100) >= 1);
            return replica;
        } catch (RuntimeException e) {
            replica.close();
            throw e;
        }
    }
}
