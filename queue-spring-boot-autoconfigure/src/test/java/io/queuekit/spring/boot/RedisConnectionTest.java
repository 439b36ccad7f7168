package io.queuekit.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.ssl.DefaultSslBundleRegistry;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundleKey;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.ssl.SslOptions;
import org.springframework.boot.ssl.SslStoreBundle;
import org.springframework.mock.env.MockEnvironment;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;

/**
 * How {@code spring.data.redis.*} and Spring Boot's connection details resolve to a
 * {@link RedisConnection} and Jedis client settings, rule by rule as Spring Boot 4's Jedis connection
 * reads them; no server needed.
 */
class RedisConnectionTest {
    private static final SslBundle REDIS_BUNDLE =
            SslBundle.of(SslStoreBundle.NONE, SslBundleKey.NONE, SslOptions.of(null, new String[] {"TLSv1.3"}));
    private static final SslBundles BUNDLES = new DefaultSslBundleRegistry("redis", REDIS_BUNDLE);
    private static final QueueDefinitions NO_QUEUES = new QueueDefinitions(new QueuekitProperties(), List.of());

    static RedisSettings settings(String... properties) {
        MockEnvironment environment = new MockEnvironment();
        for (String p : properties) {
            int eq = p.indexOf('=');
            environment.setProperty("spring.data.redis." + p.substring(0, eq), p.substring(eq + 1));
        }
        return RedisSettings.of(environment);
    }

    static RedisConnection resolve(String... properties) {
        return settings(properties).connection(BUNDLES);
    }

    @Nested
    class Url {
        @Test
        void userInfoWithoutAColon_isThePassword() {
            RedisConnection c = resolve("url=redis://s3cret@db.example:6380");
            assertThat(c.username()).isNull();
            assertThat(c.password()).isEqualTo("s3cret");
        }

        @Test
        void userInfoWithAColon_isUserAndPassword_anEmptyUserBeingNone() {
            assertThat(resolve("url=redis://orders:s3cret@h:1").username()).isEqualTo("orders");
            RedisConnection noUser = resolve("url=redis://:s3cret@h:1");
            assertThat(noUser.username()).isNull();
            assertThat(noUser.password()).isEqualTo("s3cret");
        }

        @Test
        void overridesHostPortCredentialsAndDatabase() {
            RedisConnection c =
                    resolve("url=redis://h:6380/4", "host=other", "port=1", "username=u", "password=p", "database=7");
            assertThat(c.topology()).isEqualTo(new RedisConnection.Standalone(new HostAndPort("h", 6380), 4));
            assertThat(c.username()).isNull();
            assertThat(c.password()).isNull();
            assertThat(resolve("url=redis://h:6380", "database=7").topology())
                    .isEqualTo(new RedisConnection.Standalone(new HostAndPort("h", 6380), 0));
        }

        @Test
        void thatIsNotRedis_failsNamingThePropertyButNotThePassword() {
            assertThatThrownBy(() -> resolve("url=http://u:s3cret@h:1"))
                    .isInstanceOf(QueueConfigurationException.class)
                    .hasMessage("spring.data.redis.url 'http://***@h:1' is neither redis:// nor rediss://");
            assertThatThrownBy(() -> resolve("url=redis://:s3cret@h"))
                    .hasMessage("spring.data.redis.url 'redis://***@h' has no port");
            assertThatThrownBy(() -> resolve("url=redis://h:1/orders"))
                    .hasMessage("spring.data.redis.url 'redis://h:1/orders' has the path '/orders',"
                            + " which is not a database index");
        }
    }

    @Nested
    class Ssl {
        @Test
        void aRedisUrl_withSslEnabled_usesTlsWithTheJdksDefaults() {
            RedisConnection c = resolve("url=redis://h:1", "ssl.enabled=true");
            assertThat(c.ssl()).isTrue();
            assertThat(c.sslBundle()).isNotNull().isNotSameAs(REDIS_BUNDLE);
        }

        @Test
        void aBundle_enablesTls() {
            RedisConnection c = resolve("ssl.bundle=redis");
            assertThat(c.ssl()).isTrue();
            assertThat(c.sslBundle()).isSameAs(REDIS_BUNDLE);
        }

        @Test
        void sslDisabled_ignoresTheBundle() {
            RedisConnection c =
                    settings("ssl.enabled=false", "ssl.bundle=missing").connection(null);
            assertThat(c.ssl()).isFalse();
            assertThat(c.sslBundle()).isNull();
        }

        @Test
        void aRedissUrl_usesTls_evenWithSslDisabled_butNotTheBundle() {
            RedisConnection c = resolve("url=rediss://h:1", "ssl.enabled=false", "ssl.bundle=redis");
            assertThat(c.ssl()).isTrue();
            assertThat(c.sslBundle()).isNull();
        }

        @Test
        void aBundle_withoutSslBundlesInTheContext_failsNamingTheProperty() {
            assertThatThrownBy(() -> settings("ssl.bundle=redis").connection(null))
                    .isInstanceOf(QueueConfigurationException.class)
                    .hasMessage("spring.data.redis.ssl.bundle is 'redis' but the application has no SSL bundles");
        }

        @Test
        @SuppressWarnings("deprecation") // the SSL getters Jedis reads the socket factory and parameters with
        void sentinels_getTheDataNodesTls_withTheirOwnCredentials() {
            RedisConnection c = resolve(
                    "sentinel.master=orders",
                    "sentinel.nodes=s1:26379",
                    "sentinel.username=watcher",
                    "sentinel.password=pw",
                    "password=data",
                    "ssl.bundle=redis",
                    "client-name=orders-app");
            JedisClientConfig sentinels =
                    RedisClientFactory.sentinelClientConfig(c, (RedisConnection.Sentinel) c.topology());
            assertThat(sentinels.isSsl()).isTrue();
            assertThat(sentinels.getSslSocketFactory()).isNotNull();
            assertThat(sentinels.getSslParameters().getProtocols()).containsExactly("TLSv1.3");
            assertThat(sentinels.getUser()).isEqualTo("watcher");
            assertThat(sentinels.getPassword()).isEqualTo("pw");
            assertThat(sentinels.getClientName()).isEqualTo("orders-app");
            assertThat(sentinels.getDatabase()).isZero();
        }
    }

    @Nested
    class Topology {
        @Test
        void sentinel_winsOverCluster_andSelectsTheDatabase() {
            RedisConnection c = resolve(
                    "sentinel.master=orders", "sentinel.nodes=s1:26379, s2:26380", "cluster.nodes=c:1", "database=3");
            assertThat(c.topology())
                    .isEqualTo(new RedisConnection.Sentinel(
                            "orders",
                            List.of(new HostAndPort("s1", 26379), new HostAndPort("s2", 26380)),
                            3,
                            null,
                            null));
            assertThat(RedisClientFactory.clientConfig(c, NO_QUEUES).getDatabase())
                    .isEqualTo(3);
        }

        @Test
        void sentinelSettingsWithoutAMaster_failNamingTheProperty() {
            assertThatThrownBy(() -> resolve("sentinel.nodes=s1:26379"))
                    .isInstanceOf(QueueConfigurationException.class)
                    .hasMessage("spring.data.redis.sentinel.* is set but spring.data.redis.sentinel.master is not");
        }

        @Test
        void cluster_takesMaxRedirects_andNoDatabase() {
            RedisConnection c = resolve("cluster.nodes=c1:7000,[::1]:7001", "cluster.max-redirects=2", "database=3");
            assertThat(c.topology())
                    .isEqualTo(new RedisConnection.Cluster(
                            List.of(new HostAndPort("c1", 7000), new HostAndPort("[::1]", 7001)), 2));
            assertThat(RedisClientFactory.clientConfig(c, NO_QUEUES).getDatabase())
                    .isZero();
        }

        @Test
        void clusterSettingsWithoutNodes_failNamingTheProperty() {
            assertThatThrownBy(() -> resolve("cluster.max-redirects=2"))
                    .isInstanceOf(QueueConfigurationException.class)
                    .hasMessage("spring.data.redis.cluster.nodes is empty");
        }

        @Test
        void masterReplica_failsAsJedisCannot() {
            assertThatThrownBy(() -> resolve("masterreplica.nodes=a:1,b:2"))
                    .isInstanceOf(QueueConfigurationException.class)
                    .hasMessageStartingWith("spring.data.redis.masterreplica.nodes asks for a static master/replica");
        }

        @Test
        void standalone_defaultsToLocalhost6379_database0() {
            assertThat(resolve().topology())
                    .isEqualTo(new RedisConnection.Standalone(new HostAndPort("localhost", 6379), 0));
        }
    }

    @Test
    void blankSettings_countAsUnset_andTimeoutsDefaultToTwoSeconds() {
        RedisConnection c = resolve("client-name= ", "password= ", "username=");
        assertThat(c.clientName()).isNull();
        assertThat(c.password()).isNull();
        assertThat(c.username()).isNull();
        assertThat(c.timeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(c.connectTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(resolve("timeout=5s", "connect-timeout=1s"))
                .extracting(RedisConnection::timeout, RedisConnection::connectTimeout)
                .containsExactly(Duration.ofSeconds(5), Duration.ofSeconds(1));
    }

    @Nested
    class ConnectionDetails {
        @Test
        void sentinel_winsOverCluster_withItsOwnCredentialsAndDatabase() {
            DataRedisConnectionDetails details = new DataRedisConnectionDetails() {
                @Override
                public String getUsername() {
                    return "app";
                }

                @Override
                public DataRedisConnectionDetails.Sentinel getSentinel() {
                    return sentinel("orders", 2, "watcher", "pw");
                }

                @Override
                public DataRedisConnectionDetails.Cluster getCluster() {
                    return () -> List.of(new DataRedisConnectionDetails.Node("c", 1));
                }
            };
            RedisConnection c = BootConnectionDetails.connection(details, settings("host=ignored"));
            assertThat(c.topology())
                    .isEqualTo(new RedisConnection.Sentinel(
                            "orders", List.of(new HostAndPort("s", 26379)), 2, "watcher", "pw"));
            assertThat(c.username()).isEqualTo("app");
        }

        @Test
        void takeTimeoutsClientNameRedirectsAndARedissUrl_fromTheProperties() {
            DataRedisConnectionDetails details = new DataRedisConnectionDetails() {
                @Override
                public DataRedisConnectionDetails.Cluster getCluster() {
                    return () -> List.of(new DataRedisConnectionDetails.Node("c", 1));
                }
            };
            RedisConnection c = BootConnectionDetails.connection(
                    details,
                    settings(
                            "timeout=5s",
                            "client-name=orders-app",
                            "cluster.max-redirects=3",
                            "url=rediss://ignored:1"));
            assertThat(c.topology()).isEqualTo(new RedisConnection.Cluster(List.of(new HostAndPort("c", 1)), 3));
            assertThat(c.timeout()).isEqualTo(Duration.ofSeconds(5));
            assertThat(c.clientName()).isEqualTo("orders-app");
            assertThat(c.ssl()).isTrue();
            assertThat(c.sslBundle()).isNull();
        }

        @Test
        void masterReplica_fails() {
            DataRedisConnectionDetails details = new DataRedisConnectionDetails() {
                @Override
                public DataRedisConnectionDetails.MasterReplica getMasterReplica() {
                    return () -> List.of(new DataRedisConnectionDetails.Node("a", 1));
                }
            };
            assertThatThrownBy(() -> BootConnectionDetails.connection(details, settings()))
                    .isInstanceOf(QueueConfigurationException.class)
                    .hasMessageContaining("DataRedisConnectionDetails asks for a static master/replica");
        }

        private static DataRedisConnectionDetails.Sentinel sentinel(
                String master, int database, String username, String password) {
            return new DataRedisConnectionDetails.Sentinel() {
                @Override
                public int getDatabase() {
                    return database;
                }

                @Override
                public String getMaster() {
                    return master;
                }

                @Override
                public List<DataRedisConnectionDetails.Node> getNodes() {
                    return List.of(new DataRedisConnectionDetails.Node("s", 26379));
                }

                @Override
                public String getUsername() {
                    return username;
                }

                @Override
                public String getPassword() {
                    return password;
                }
            };
        }
    }
}
