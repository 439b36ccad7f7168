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
import io.queuekit.testing.RedisServerException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
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
 * Queues and broadcasts over TLS: the test makes a CA and a server certificate for 127.0.0.1 with
 * openssl, starts redis-server with {@code tls-port}, and connects with Jedis through an
 * trust store that holds only that CA, checking the host name. Skipped, with the
 * reason printed, only when the redis-server binary was built without TLS (or openssl is missing).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsTest {
    @TempDir
    static Path dir;

    private static RedisServer server;
    private static int tlsPort;
    private static final char[] PASSWORD = "changeit".toCharArray();
    private static Path truststore;

    @BeforeAll
    static void start() throws Exception {
        if (openssl("version") != 0) {
            skip("openssl is not on PATH");
        }
        makeCertificates();
        tlsPort = freePort();
        try {
            server = RedisServer.builder()
                    .requireProcessControl()
                    .config("tls-port", String.valueOf(tlsPort))
                    .config("tls-cert-file", dir.resolve("server.crt").toString())
                    .config("tls-key-file", dir.resolve("server.key").toString())
                    .config("tls-ca-cert-file", dir.resolve("ca.crt").toString())
                    .config("tls-auth-clients", "no")
                    .start();
        } catch (RedisServerException e) {
            String why = String.valueOf(e.getMessage());
            if (why.contains("tls") || why.contains("TLS") || why.contains("Bad directive")) {
                skip("redis-server was built without TLS support: "
                        + why.lines().findFirst().orElse(""));
            }
            throw e;
        }
        truststore = truststore(dir.resolve("ca.crt"));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static void skip(String why) {
        String message = "TLS test skipped: " + why;
        System.out.println(message);
        Assumptions.abort(message);
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
        return SslOptions.builder().truststore(truststore.toFile(), PASSWORD).trustStoreType("PKCS12");
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

    private static void makeCertificates() throws Exception {
        String ca = dir.resolve("ca").toString();
        String srv = dir.resolve("server").toString();
        Files.writeString(dir.resolve("san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
        check(openssl(
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-days",
                "2",
                "-subj",
                "/CN=queuekit test CA",
                "-keyout",
                ca + ".key",
                "-out",
                ca + ".crt"));
        check(openssl(
                "req",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-subj",
                "/CN=127.0.0.1",
                "-keyout",
                srv + ".key",
                "-out",
                srv + ".csr"));
        check(openssl(
                "x509",
                "-req",
                "-in",
                srv + ".csr",
                "-CA",
                ca + ".crt",
                "-CAkey",
                ca + ".key",
                "-CAcreateserial",
                "-days",
                "2",
                "-extfile",
                dir.resolve("san.ext").toString(),
                "-out",
                srv + ".crt"));
    }

    private static void check(int exit) {
        assertThat(exit).as("openssl exit status").isZero();
    }

    private static int openssl(String... args) throws InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of("openssl"));
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(dir.resolve("openssl.log").toFile())
                    .start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return -1;
            }
            return p.exitValue();
        } catch (IOException e) {
            return -1;
        }
    }

    /** A PKCS12 trust store holding only the test CA. */
    private static Path truststore(Path caCert) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(caCert)) {
            trust.setCertificateEntry("queuekit-test-ca", (X509Certificate)
                    CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        Path file = dir.resolve("truststore.p12");
        try (OutputStream out = Files.newOutputStream(file)) {
            trust.store(out, PASSWORD);
        }
        return file;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
