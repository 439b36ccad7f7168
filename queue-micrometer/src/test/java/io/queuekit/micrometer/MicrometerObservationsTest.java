package io.queuekit.micrometer;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.GlobalObservationConvention;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.ReceiverContext;
import io.micrometer.observation.transport.SenderContext;
import io.queuekit.Headers;
import io.queuekit.spi.MessageObservations;
import io.queuekit.spi.MessageObservations.Destination;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * What {@link MicrometerObservations} does with the calls a transport makes. The trace carried from
 * a real send to a real consumer, with Micrometer Tracing, is checked in integration-tests
 * (TracePropagationTest) and in the Spring Boot starter's ObservationsTest.
 */
class MicrometerObservationsTest {
    private static final Destination ORDERS = new Destination("orders", "redis-list", MessageObservations.Kind.QUEUE);
    private static final Destination PRICES =
            new Destination("prices", "redis-pubsub", MessageObservations.Kind.BROADCAST);
    private static final String TRACEPARENT = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    private final TestObservationRegistry registry = TestObservationRegistry.create();

    /** Stands in for a tracer's propagator: writes a traceparent on send, reads it on receive. */
    private static final class Propagation implements ObservationHandler<Observation.Context> {
        final List<String> read = new ArrayList<>();

        @Override
        @SuppressWarnings("unchecked")
        public void onStart(Observation.Context context) {
            if (context instanceof SenderContext<?> sender) {
                SenderContext<Object> s = (SenderContext<Object>) sender;
                s.getSetter().set(s.getCarrier(), "traceparent", TRACEPARENT);
            } else if (context instanceof ReceiverContext<?> receiver) {
                ReceiverContext<Object> r = (ReceiverContext<Object>) receiver;
                read.add(r.getGetter().get(r.getCarrier(), "traceparent"));
            }
        }

        @Override
        public boolean supportsContext(Observation.Context context) {
            return true;
        }
    }

    @Test
    void sending_isAProducerObservation_namedAndTagged() {
        MicrometerObservations observations = MicrometerObservations.of(registry);

        String result = observations.sending(ORDERS, 3, added -> "sent");

        assertThat(result).isEqualTo("sent");
        assertThat(registry)
                .hasSingleObservationThat()
                .hasNameEqualTo("queuekit.send")
                .hasContextualNameEqualTo("send orders")
                .hasLowCardinalityKeyValue("queue", "orders")
                .hasLowCardinalityKeyValue("transport", "redis-list")
                .hasLowCardinalityKeyValue("kind", "queue")
                .hasLowCardinalityKeyValue("outcome", "success")
                .hasHighCardinalityKeyValue("messages", "3")
                .doesNotHaveError()
                .hasBeenStarted()
                .hasBeenStopped()
                .isInstanceOfSatisfying(QueueSendContext.class, context -> {
                    assertThat(context.getKind()).isEqualTo(Kind.PRODUCER);
                    assertThat(context.getRemoteServiceName()).isEqualTo("redis-list");
                    assertThat(context.getDestination()).isEqualTo(ORDERS);
                    assertThat(context.getMessageCount()).isEqualTo(3);
                });
    }

    @Test
    void sending_givesTheSendWhatThePropagatorWrote() {
        registry.observationConfig().observationHandler(new Propagation());
        AtomicReference<Headers> added = new AtomicReference<>();

        MicrometerObservations.of(registry).sending(ORDERS, 1, headers -> {
            added.set(headers);
            return null;
        });

        assertThat(added.get()).isEqualTo(Headers.of("traceparent", TRACEPARENT));
    }

    @Test
    void sending_withoutAPropagator_addsNoHeaders() {
        AtomicReference<Headers> added = new AtomicReference<>();

        MicrometerObservations.of(registry).sending(ORDERS, 1, headers -> {
            added.set(headers);
            return null;
        });

        assertThat(added.get()).isSameAs(Headers.empty());
    }

    @Test
    void sending_thatThrows_isRecordedAsAFailure_andRethrown() {
        IllegalStateException down = new IllegalStateException("Redis is down");

        assertThatThrownBy(() -> MicrometerObservations.of(registry).sending(ORDERS, 1, headers -> {
                    throw down;
                }))
                .isSameAs(down);
        assertThat(registry)
                .hasSingleObservationThat()
                .hasLowCardinalityKeyValue("outcome", "failure")
                .hasError(down)
                .hasBeenStopped();
    }

    @Test
    void sending_whosePropagationHeadersAreRefused_sendsNothing() {
        registry.observationConfig().observationHandler(new ObservationHandler<SenderContext<Object>>() {
            @Override
            public void onStart(SenderContext<Object> context) {
                context.getSetter().set(context.getCarrier(), "bad name", "x");
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return context instanceof SenderContext;
            }
        });
        List<Headers> sent = new ArrayList<>();

        assertThatThrownBy(() -> MicrometerObservations.of(registry).sending(ORDERS, 1, sent::add))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"bad name\"");
        assertThat(sent).isEmpty();
        assertThat(registry).hasSingleObservationThat().hasLowCardinalityKeyValue("outcome", "failure");
    }

    @Test
    void handling_isAConsumerObservation_currentAroundTheHandler_readingTheHeaders() throws Exception {
        Propagation propagation = new Propagation();
        registry.observationConfig().observationHandler(propagation);
        AtomicReference<Observation> current = new AtomicReference<>();

        MicrometerObservations.of(registry)
                .handling(
                        PRICES,
                        Headers.of("traceparent", TRACEPARENT),
                        () -> current.set(registry.getCurrentObservation()));

        assertThat(propagation.read).containsExactly(TRACEPARENT);
        assertThat(current.get()).isNotNull();
        assertThat(current.get().getContext()).isInstanceOf(QueueProcessContext.class);
        assertThat(registry.getCurrentObservation()).isNull();
        assertThat(registry)
                .hasSingleObservationThat()
                .hasNameEqualTo("queuekit.process")
                .hasContextualNameEqualTo("process prices")
                .hasLowCardinalityKeyValue("queue", "prices")
                .hasLowCardinalityKeyValue("transport", "redis-pubsub")
                .hasLowCardinalityKeyValue("kind", "broadcast")
                .hasLowCardinalityKeyValue("outcome", "success")
                .hasBeenStopped()
                .isInstanceOfSatisfying(QueueProcessContext.class, context -> {
                    assertThat(context.getKind()).isEqualTo(Kind.CONSUMER);
                    assertThat(context.getRemoteServiceName()).isEqualTo("redis-pubsub");
                    assertThat(context.getHeaders()).isEqualTo(Headers.of("traceparent", TRACEPARENT));
                });
    }

    @Test
    void handling_thatThrows_isRecordedAsAFailure_andRethrown() {
        Exception refused = new Exception("payment refused");

        assertThatThrownBy(() -> MicrometerObservations.of(registry).handling(ORDERS, Headers.empty(), () -> {
                    throw refused;
                }))
                .isSameAs(refused);
        assertThat(registry)
                .hasSingleObservationThat()
                .hasNameEqualTo("queuekit.process")
                .hasLowCardinalityKeyValue("outcome", "failure")
                .hasError(refused)
                .hasBeenStopped();
    }

    @Test
    void aNoopRegistry_addsNoHeaders_andStillRunsEverything() throws Exception {
        MicrometerObservations observations = MicrometerObservations.of(ObservationRegistry.NOOP);
        List<String> ran = new ArrayList<>();

        observations.sending(ORDERS, 1, headers -> {
            assertThat(headers).isEqualTo(Headers.empty());
            return ran.add("send");
        });
        observations.handling(ORDERS, Headers.empty(), () -> ran.add("handle"));

        assertThat(ran).containsExactly("send", "handle");
    }

    @Test
    void givenConventions_nameAndTag_inPlaceOfTheDefaults() throws Exception {
        QueueSendObservationConvention send = new QueueSendObservationConvention() {
            @Override
            public String getName() {
                return "orders.out";
            }

            @Override
            public KeyValues getLowCardinalityKeyValues(QueueSendContext context) {
                return QueueSendObservationConvention.super
                        .getLowCardinalityKeyValues(context)
                        .and("team", "billing");
            }
        };
        QueueProcessObservationConvention process = new QueueProcessObservationConvention() {
            @Override
            public KeyValues getLowCardinalityKeyValues(QueueProcessContext context) {
                return KeyValues.of("tenant", context.getHeaders().get("tenant"));
            }
        };
        MicrometerObservations observations = MicrometerObservations.builder(registry)
                .sendConvention(send)
                .processConvention(process)
                .build();

        observations.sending(ORDERS, 1, headers -> null);
        observations.handling(ORDERS, Headers.of("tenant", "acme"), () -> {});

        assertThat(registry)
                .hasObservationWithNameEqualTo("orders.out")
                .that()
                .hasLowCardinalityKeyValue("team", "billing")
                .hasLowCardinalityKeyValue("queue", "orders");
        assertThat(registry)
                .hasObservationWithNameEqualTo("queuekit.process")
                .that()
                .hasLowCardinalityKeyValue("tenant", "acme")
                .doesNotHaveLowCardinalityKeyValueWithKey("queue");
    }

    @Test
    void aGlobalConvention_applies_unlessTheBuilderWasGivenOne() {
        registry.observationConfig().observationConvention(new GlobalSend());

        MicrometerObservations.of(registry).sending(ORDERS, 1, headers -> null);
        MicrometerObservations.builder(registry)
                .sendConvention(new QueueSendObservationConvention() {})
                .build()
                .sending(PRICES, 1, headers -> null);

        assertThat(registry).hasObservationWithNameEqualTo("global.send");
        assertThat(registry)
                .hasObservationWithNameEqualTo("queuekit.send")
                .that()
                .hasLowCardinalityKeyValue("queue", "prices");
    }

    private static final class GlobalSend
            implements GlobalObservationConvention<QueueSendContext>, QueueSendObservationConvention {
        @Override
        public String getName() {
            return "global.send";
        }
    }

    @Test
    void builder_refusesNulls_namingThem() {
        assertThatThrownBy(() -> MicrometerObservations.of(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("registry");
        assertThatThrownBy(() -> MicrometerObservations.builder(registry).sendConvention(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("send convention");
        assertThatThrownBy(() -> MicrometerObservations.builder(registry).processConvention(null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("process convention");
        assertThatThrownBy(() -> new QueueSendContext(ORDERS, -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("message count must not be negative: -1");
    }
}
