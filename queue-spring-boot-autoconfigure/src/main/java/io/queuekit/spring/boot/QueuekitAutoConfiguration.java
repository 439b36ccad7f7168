package io.queuekit.spring.boot;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.queuekit.MessageQueue;
import io.queuekit.inmemory.ManualClock;
import io.queuekit.micrometer.MicrometerObservations;
import io.queuekit.micrometer.MicrometerQueueMetrics;
import io.queuekit.micrometer.QueueProcessObservationConvention;
import io.queuekit.micrometer.QueueSendObservationConvention;
import io.queuekit.spi.MessageObservations;
import io.queuekit.spi.QueueMetrics;
import io.queuekit.spring.boot.QueuekitProperties.Transport;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ThreadFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnThreading;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.thread.Threading;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.core.env.Environment;
import redis.clients.jedis.UnifiedJedis;
import tools.jackson.databind.json.JsonMapper;

/**
 * queuekit for a Spring Boot application: a Jedis client from Spring Boot's Redis connection details
 * or {@code spring.data.redis.*} (unless the application has its own {@code UnifiedJedis}), a bean per queue declared under
 * {@code queuekit.queues}, consumers for {@link QueueListener} and {@link BroadcastListener}
 * methods, the schedules of {@code queuekit.schedules} and {@link QueueSchedule} methods, metrics in the application's {@code MeterRegistry}, observations in its
 * {@code ObservationRegistry} (unless {@code queuekit.observations.enabled=false}), a health
 * indicator and the {@code queues} Actuator endpoint. With {@code queuekit.transport=in-memory} the same queues are
 * built in memory and no Redis client is made.
 */
@AutoConfiguration(afterName = "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration")
@ConditionalOnClass({MessageQueue.class, UnifiedJedis.class})
@EnableConfigurationProperties(QueuekitProperties.class)
@ImportRuntimeHints(QueuekitRuntimeHints.class)
public class QueuekitAutoConfiguration {
    private static final String TRANSPORT = "queuekit.transport";
    /**
     * The name of a {@code JsonMapper} bean for the payloads alone, which wins over the
     * application's (declare it {@code @Bean(defaultCandidate = false)} so that it does not
     * replace Boot's own mapper).
     */
    static final String JSON_MAPPER = "queuekitJsonMapper";

    @Bean
    static QueueRegistrar queuekitQueueRegistrar() {
        return new QueueRegistrar();
    }

    @Bean(QueueRegistrar.FACTORY)
    QueueFactory queuekitQueueFactory(
            QueueDefinitions definitions,
            ObjectProvider<UnifiedJedis> redis,
            ObjectProvider<JsonMapper> mapper,
            ObjectProvider<QueueMetrics> metrics,
            ObjectProvider<MessageObservations> observations,
            ConfigurableListableBeanFactory beans,
            BroadcastSubscriptions broadcasts,
            ObjectProvider<QueueBuilderCustomizer> customizers) {
        Transport transport = definitions.properties.getTransport();
        UnifiedJedis client = transport == Transport.REDIS ? redis.getObject() : null;
        return new QueueFactory(
                definitions,
                transport,
                client,
                beans.containsBean(JSON_MAPPER)
                        ? beans.getBean(JSON_MAPPER, JsonMapper.class)
                        : mapper.getIfAvailable(() -> JsonMapper.builder().build()),
                metrics.getIfAvailable(() -> QueueMetrics.NONE),
                definitions.properties.getObservations().isEnabled()
                        ? observations.getIfAvailable(() -> MessageObservations.NONE)
                        : MessageObservations.NONE,
                () -> clock(definitions, beans),
                broadcasts,
                customizers.orderedStream().toList(),
                beans);
    }

    private static Clock clock(QueueDefinitions definitions, BeanFactory beans) {
        return definitions.properties.getInMemory().getClock() == QueuekitProperties.ClockMode.MANUAL
                ? beans.getBean(InMemoryConfiguration.MANUAL_CLOCK, Clock.class)
                : Clock.systemUTC();
    }

    /**
     * The client for the queues, from Spring Boot's Redis connection details if the application has
     * them, else from {@code spring.data.redis.*}; closed when the context closes, after every queue.
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(name = TRANSPORT, havingValue = "redis", matchIfMissing = true)
    UnifiedJedis queuekitRedisClient(
            Environment environment,
            QueueDefinitions definitions,
            ObjectProvider<SslBundles> sslBundles,
            ObjectProvider<ConnectionDetailsLookup> connectionDetails,
            ObjectProvider<RedisClientCustomizer> customizers) {
        RedisSettings settings = RedisSettings.of(environment);
        ConnectionDetailsLookup lookup = connectionDetails.getIfAvailable();
        RedisConnection fromDetails = lookup != null ? lookup.connection(settings) : null;
        RedisConnection connection =
                fromDetails != null ? fromDetails : settings.connection(sslBundles.getIfAvailable());
        return RedisClientFactory.create(
                connection,
                settings.pool(),
                definitions,
                customizers.orderedStream().toList());
    }

    /** Finds Spring Boot's Redis connection details; a type of ours, so nothing here names Boot's. */
    @FunctionalInterface
    interface ConnectionDetailsLookup {
        /** The connection the application's details give, null if it has none. */
        @Nullable
        RedisConnection connection(RedisSettings settings);
    }

    /**
     * Spring Boot's Redis connection details, which {@code @ServiceConnection} and Docker Compose
     * register, when spring-boot-data-redis is on the classpath.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(DataRedisConnectionDetails.class)
    static class ConnectionDetailsConfiguration {

        @Bean
        ConnectionDetailsLookup queuekitRedisConnectionDetailsLookup(
                ObjectProvider<DataRedisConnectionDetails> details) {
            return settings -> {
                DataRedisConnectionDetails d = details.getIfAvailable();
                return d != null ? BootConnectionDetails.connection(d, settings) : null;
            };
        }
    }

    @Bean
    static UnseenListenerCheck queuekitUnseenListenerCheck(
            ObjectProvider<QueueDefinitions> definitions, Environment environment) {
        return new UnseenListenerCheck(definitions, environment);
    }

    @Bean
    QueueCatalog queuekitQueueCatalog(QueueDefinitions definitions, BeanFactory beans) {
        return new QueueCatalog(definitions, beans);
    }

    /** Runs the listener methods; the {@link QueueListenerRegistry} of the application. */
    @Bean
    QueueListenerContainer queuekitListenerContainer(
            QueueDefinitions definitions,
            QueueCatalog catalog,
            BeanFactory beans,
            Environment environment,
            BroadcastSubscriptions broadcasts,
            ObjectProvider<QueueListenerErrorHandler> errorHandler) {
        return new QueueListenerContainer(
                definitions, catalog, beans, phaseTimeout(environment), broadcasts, errorHandler.getIfAvailable());
    }

    /** Runs {@code queuekit.schedules.*} and the {@link QueueSchedule} methods. */
    @Bean
    QueueSchedules queuekitSchedules(
            QueueDefinitions definitions,
            QueueCatalog catalog,
            QueueFactory factory,
            BeanFactory beans,
            Environment environment) {
        return new QueueSchedules(definitions, catalog, factory, beans, phaseTimeout(environment));
    }

    private static Duration phaseTimeout(Environment environment) {
        return Binder.get(environment)
                .bind("spring.lifecycle.timeout-per-shutdown-phase", Duration.class)
                .orElse(Duration.ofSeconds(30));
    }

    @Bean
    BroadcastSubscriptions queuekitBroadcastSubscriptions(ApplicationEventPublisher events) {
        return new BroadcastSubscriptions(events);
    }

    /**
     * The listeners' worker threads under {@code spring.threads.virtual.enabled=true} (Java 21 and
     * later, as Spring Boot decides): virtual threads. Not a candidate for injection elsewhere.
     */
    @Bean(name = VirtualThreads.BEAN, defaultCandidate = false)
    @ConditionalOnThreading(Threading.VIRTUAL)
    @ConditionalOnMissingBean(name = VirtualThreads.BEAN)
    static ThreadFactory queuekitWorkerThreadFactory() {
        return VirtualThreads.factory();
    }

    /** The in-memory transport's clock, a {@code ManualClock} when tests ask for one. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(ManualClock.class)
    static class InMemoryConfiguration {
        static final String MANUAL_CLOCK = "queuekitManualClock";

        @Bean(MANUAL_CLOCK)
        @ConditionalOnProperty(name = "queuekit.in-memory.clock", havingValue = "manual")
        ManualClock queuekitManualClock() {
            return new ManualClock();
        }
    }

    /** Queue metrics in the application's {@code MeterRegistry}, when there is one. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({MeterRegistry.class, MicrometerQueueMetrics.class})
    static class MetricsConfiguration {

        @Bean
        @ConditionalOnMissingBean(QueueMetrics.class)
        QueueMetrics queuekitQueueMetrics(ObjectProvider<MeterRegistry> registry) {
            MeterRegistry meters = registry.getIfUnique();
            return meters == null ? QueueMetrics.NONE : MicrometerQueueMetrics.of(meters);
        }
    }

    /**
     * Observations of every queue and broadcaster in the application's {@code ObservationRegistry},
     * when there is one, with the application's {@link QueueSendObservationConvention} and
     * {@link QueueProcessObservationConvention} beans if it has them. {@code queuekit.observations.enabled}
     * is read when the queues are built, so that it may change after ahead-of-time processing.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({ObservationRegistry.class, MicrometerObservations.class})
    static class ObservationConfiguration {

        @Bean
        @ConditionalOnMissingBean(MessageObservations.class)
        MessageObservations queuekitMessageObservations(
                ObjectProvider<ObservationRegistry> registry,
                ObjectProvider<QueueSendObservationConvention> sendConvention,
                ObjectProvider<QueueProcessObservationConvention> processConvention) {
            ObservationRegistry observations = registry.getIfUnique();
            if (observations == null) {
                return MessageObservations.NONE;
            }
            MicrometerObservations.Builder builder = MicrometerObservations.builder(observations);
            sendConvention.ifUnique(builder::sendConvention);
            processConvention.ifUnique(builder::processConvention);
            return builder.build();
        }
    }

    /** The {@code queuekit} health indicator. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    @ConditionalOnEnabledHealthIndicator("queuekit")
    static class HealthConfiguration {

        @Bean
        QueuesHealthIndicator queuekitHealthIndicator(
                QueueCatalog catalog,
                QueueDefinitions definitions,
                ObjectProvider<UnifiedJedis> redis,
                BroadcastSubscriptions broadcasts) {
            UnifiedJedis client =
                    definitions.properties.getTransport() == Transport.REDIS ? redis.getIfAvailable() : null;
            return new QueuesHealthIndicator(catalog, client, definitions.properties.getHealth(), broadcasts);
        }
    }

    /** The {@code queues} Actuator endpoint. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(Endpoint.class)
    @ConditionalOnAvailableEndpoint(QueuesEndpoint.class)
    static class EndpointConfiguration {

        @Bean
        QueuesEndpoint queuesEndpoint(QueueCatalog catalog) {
            return new QueuesEndpoint(catalog);
        }
    }
}
