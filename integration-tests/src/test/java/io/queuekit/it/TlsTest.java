package io.queuekit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import io.queuekit.TransportException;
import io.queuekit.redis.pubsub.RedisBroadcaster;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.TlsCertificates;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.SslOptions;
import redis.clients.jedis.SslVerifyMode;

/**
 * Queues and broadcasts over TLS: the test makes a CA and a server certificate for 127.0.0.1
 * ({@link TlsCertificates}), starts redis-server with {@code tls-port}, and connects with Jedis through a
 * trust store that holds only that CA, checking the host name. Skipped, with the
 * reason printed, only when the redis-server binary was built without TLS (or openssl is missing).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsTest {
    @TempDir
    static Path dir;

    private static RedisServer server;
    private static int tlsPort;
    private static TlsCertificates certificates;

    @BeforeAll
    static void start() {
        certificates = TlsCertificates.create(dir);
        tlsPort = TlsCertificates.freePort();
        server = TlsCertificates.startOrSkip(
                certificates.serve(RedisServer.builder().requireProcessControl(), tlsPort));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** A client over TLS that checks the server's certificate chain and host name (its IP SAN). */
    private static RedisClient tlsClient(SslOptions.Builder ssl) {
        return RedisClients.builder(server)
                .address("127.0.0.1", tlsPort)
                .poolSize(8)
                .configure(
                        c -> c.sslOptions(ssl.sslVerifyMode(SslVerifyMode.FULL).build()))
                .build();
    }

    private static SslOptions.Builder trustingTheCa() {
        return SslOptions.builder()
                .truststore(certificates.truststore().toFile(), certificates.truststorePassword())
                .trustStoreType("PKCS12");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Transport.class)
    void queue_sendsAndReceivesOverTls(Transport transport) throws Exception {
        try (RedisClient client = tlsClient(trustingTheCa());
                MessageQueue<String> q = transport.build(
                        client,
                        "tls-" + transport.name().toLowerCase(java.util.Locale.ROOT),
                        Codec.utf8(),
                        b -> b.blockTimeout(Duration.ofMillis(200)))) {
            q.sendAll(List.of("secret-1", "secret-2"));
            Delivery<String> first = q.poll(5, TimeUnit.SECONDS);
            Delivery<String> second = q.poll(5, TimeUnit.SECONDS);
            assertThat(List.of(first.payload(), second.payload())).containsExactlyInAnyOrder("secret-1", "secret-2");
            assertThat(first.ack()).isTrue();
            assertThat(second.ack()).isTrue();
            assertThat(q.poll(300, TimeUnit.MILLISECONDS)).isNull();
        }
    }

    @Test
    void broadcaster_publishesAndSubscribesOverTls() {
        try (RedisClient client = tlsClient(trustingTheCa());
                RedisBroadcaster<String> b =
                        RedisBroadcaster.builder(client, "tls", Codec.utf8()).build()) {
            Set<String> heard = ConcurrentHashMap.newKeySet();
            b.subscribe(heard::add);
            assertThat(b.publish("over tls")).isEqualTo(1);
            await().atMost(Duration.ofSeconds(5)).until(() -> heard.contains("over tls"));
        }
    }

    @Test
    void clientThatDoesNotTrustTheServer_isRefusedWithATransportException() throws Exception {
        // the JDK's trust store, which does not hold the test CA
        try (RedisClient client = tlsClient(SslOptions.builder());
                MessageQueue<String> q =
                        Transport.LIST_AT_LEAST_ONCE.build(client, "tls-untrusted", Codec.utf8(), b -> b)) {
            assertThatThrownBy(() -> q.send("x"))
                    .isInstanceOf(TransportException.class)
                    .hasMessageContaining("send failed")
                    .satisfies(t -> assertThat(causes(t)).anyMatch(c -> c instanceof SSLHandshakeException));
        }
    }

    private static List<Throwable> causes(Throwable t) {
        List<Throwable> out = new java.util.ArrayList<>();
        for (Throwable c = t; c != null && !out.contains(c); c = c.getCause()) {
            out.add(c);
        }
        return out;
    }
}
