package io.queuekit.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.Delivery;
import io.queuekit.MessageQueue;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.TlsCertificates;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import redis.clients.jedis.UnifiedJedis;

/**
 * {@code spring.data.redis.ssl.*} and {@code rediss://} on a real server with a TLS port (and its
 * plain port), and a Sentinel with TLS: TLS is on when the URL's scheme or {@code ssl.enabled} says so,
 * a bundle counts only while SSL is enabled, and Sentinels are reached over TLS too, as Spring Boot's
 * Jedis connection does. The bundle {@code redis} trusts only the test CA.
 */
@Timeout(120)
class RedisTlsFromPropertiesTest {
    private static final String MASTER = "tls-primary";

    @TempDir
    static Path dir;

    private static TlsCertificates certificates;
    private static RedisServer server;
    private static int tlsPort;
    private static RedisServer sentinel;
    private static int sentinelTlsPort;

    @BeforeAll
    static void start() {
        certificates = TlsCertificates.create(dir);
        tlsPort = TlsCertificates.freePort();
        server = TlsCertificates.startOrSkip(certificates.serve(RedisServer.builder(), tlsPort));
        sentinelTlsPort = TlsCertificates.freePort();
        sentinel = certificates
                .serve(RedisServer.builder().sentinel(), sentinelTlsPort)
                .config("tls-replication", "yes") // the Sentinel reaches the primary over TLS too
                .config("sentinel", "monitor " + MASTER + " 127.0.0.1 " + tlsPort + " 1")
                .start();
    }

    @AfterAll
    static void stop() {
        if (sentinel != null) {
            sentinel.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static ApplicationContextRunner context() {
        return Contexts.on(server)
                .withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class))
                .withPropertyValues(
                        "spring.ssl.bundle.pem.redis.truststore.certificate=file:" + certificates.caCertificate(),
                        "queuekit.queues.orders.key-prefix=" + Contexts.unique("tls"));
    }

    /** Sends and receives one message through the context's "orders" queue. */
    static void roundTrip(AssertableApplicationContext context) throws InterruptedException {
        assertThat(context).hasNotFailed();
        @SuppressWarnings("unchecked")
        MessageQueue<String> orders = context.getBean("orders", MessageQueue.class);
        orders.send("o-1");
        Delivery<String> d = orders.poll(10, TimeUnit.SECONDS);
        assertThat(d).isNotNull();
        assertThat(d.payload()).isEqualTo("o-1");
        assertThat(d.ack()).isTrue();
    }

    @Test
    void aRedissUrl_withABundle_connectsOverTls() {
        context()
                .withPropertyValues(
                        "spring.data.redis.url=rediss://127.0.0.1:" + tlsPort, "spring.data.redis.ssl.bundle=redis")
                .run(RedisTlsFromPropertiesTest::roundTrip);
    }

    @Test
    void aBundleAlone_enablesTls() {
        context()
                .withPropertyValues("spring.data.redis.port=" + tlsPort, "spring.data.redis.ssl.bundle=redis")
                .run(RedisTlsFromPropertiesTest::roundTrip);
    }

    @Test
    void aRedisUrl_withSslEnabled_connectsOverTls_trustingTheJdksCertificates() {
        // no bundle: Boot's system default, whose trust store lacks the test CA, so the handshake is
        // refused; in plaintext the server would close the connection instead
        context()
                .withPropertyValues(
                        "spring.data.redis.url=redis://127.0.0.1:" + tlsPort, "spring.data.redis.ssl.enabled=true")
                .run(context -> {
                    UnifiedJedis client = context.getBean(UnifiedJedis.class);
                    assertThatThrownBy(client::ping)
                            .satisfies(e -> assertThat(causes(e)).anyMatch(c -> c instanceof SSLHandshakeException));
                });
    }

    @Test
    void sslDisabled_withABundle_connectsInPlaintext() {
        context()
                .withPropertyValues("spring.data.redis.ssl.enabled=false", "spring.data.redis.ssl.bundle=redis")
                .run(RedisTlsFromPropertiesTest::roundTrip);
    }

    @Test
    void sentinelWithABundle_reachesTheSentinelsAndThePrimaryOverTls() {
        context()
                .withPropertyValues(
                        "spring.data.redis.sentinel.master=" + MASTER,
                        "spring.data.redis.sentinel.nodes=127.0.0.1:" + sentinelTlsPort,
                        "spring.data.redis.ssl.bundle=redis")
                .run(RedisTlsFromPropertiesTest::roundTrip);
    }

    @Test
    void connectionDetails_withAnSslBundle_connectOverTls() {
        context()
                .withUserConfiguration(TlsDetails.class)
                .withPropertyValues("spring.data.redis.port=" + TlsCertificates.freePort()) // nothing listens there
                .run(RedisTlsFromPropertiesTest::roundTrip);
    }

    @Test
    void sentinelConnectionDetails_withAnSslBundle_reachTheSentinelsOverTls() {
        context()
                .withUserConfiguration(TlsSentinelDetails.class)
                .withPropertyValues("spring.data.redis.port=" + TlsCertificates.freePort())
                .run(RedisTlsFromPropertiesTest::roundTrip);
    }

    /** What {@code @ServiceConnection} registers for a Redis container with TLS. */
    @Configuration(proxyBeanMethods = false)
    static class TlsDetails {
        @Bean
        DataRedisConnectionDetails redisConnectionDetails(SslBundles bundles) {
            return new DataRedisConnectionDetails() {
                @Override
                public SslBundle getSslBundle() {
                    return bundles.getBundle("redis");
                }

                @Override
                public Standalone getStandalone() {
                    return Standalone.of("127.0.0.1", tlsPort);
                }
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TlsSentinelDetails {
        @Bean
        DataRedisConnectionDetails redisConnectionDetails(SslBundles bundles) {
            return new DataRedisConnectionDetails() {
                @Override
                public SslBundle getSslBundle() {
                    return bundles.getBundle("redis");
                }

                @Override
                public Sentinel getSentinel() {
                    return new Sentinel() {
                        @Override
                        public int getDatabase() {
                            return 0;
                        }

                        @Override
                        public String getMaster() {
                            return MASTER;
                        }

                        @Override
                        public List<Node> getNodes() {
                            return List.of(new Node("127.0.0.1", sentinelTlsPort));
                        }

                        @Override
                        public String getUsername() {
                            return null;
                        }

                        @Override
                        public String getPassword() {
                            return null;
                        }
                    };
                }
            };
        }
    }

    private static List<Throwable> causes(Throwable t) {
        List<Throwable> out = new ArrayList<>();
        for (Throwable c = t; c != null && !out.contains(c); c = c.getCause()) {
            out.add(c);
        }
        return out;
    }
}
