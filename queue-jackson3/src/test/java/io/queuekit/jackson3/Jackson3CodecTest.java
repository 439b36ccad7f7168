package io.queuekit.jackson3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.queuekit.SerializationException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.DefaultTyping;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.jsontype.BasicPolymorphicTypeValidator;
import tools.jackson.databind.jsontype.PolymorphicTypeValidator;

/**
 * The Jackson 3 codec round-trips payloads and decodes only into the type it was made for. Each
 * attack is first shown to work against a mapper that trusts type information, so the payloads
 * are real and the test fails if the codec's hardening goes.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class Jackson3CodecTest {
    record Order(String id, Instant placedAt, List<String> items) {}

    /** Something a payload can carry, and the kind of field a gadget is smuggled into. */
    public interface Step {}

    /** Stands in for a gadget class: counts its instances and the "commands" set on it. */
    public static final class Gadget implements Step {
        static final AtomicInteger CREATED = new AtomicInteger();
        static final AtomicInteger COMMANDS = new AtomicInteger();

        public Gadget() {
            CREATED.incrementAndGet();
        }

        public void setCommand(String command) {
            COMMANDS.incrementAndGet();
        }
    }

    /** A gadget whose static initializer is the attack; no other test touches it. */
    public static final class InitializerGadget implements Step {
        static {
            Loaded.INITIALIZED.incrementAndGet();
        }
    }

    /** Kept apart from {@link InitializerGadget}, so reading the count does not initialize it. */
    static final class Loaded {
        static final AtomicInteger INITIALIZED = new AtomicInteger();
    }

    /** A payload whose field takes class names from the body ({@code @JsonTypeInfo(use = CLASS)}). */
    public record ClassTagged(
            @JsonTypeInfo(use = JsonTypeInfo.Id.CLASS, property = "@class")
            Step step) {}

    /** The same with the abbreviated class names of {@code MINIMAL_CLASS}. */
    public record MinimalClassTagged(
            @JsonTypeInfo(use = JsonTypeInfo.Id.MINIMAL_CLASS, property = "@c")
            Step step) {}

    /** A class-name property on {@code Object}, the widest door. */
    public record ObjectClassTagged(
            @JsonTypeInfo(use = JsonTypeInfo.Id.CLASS, property = "@class")
            Object data) {}

    /** A payload with untyped fields, which default typing would fill with any class named in the body. */
    public record Untyped(String name, Object data, Step step) {}

    /** A payload Jackson cannot write: its only property fails to read. */
    public static final class Unwritable {
        public String getValue() {
            throw new IllegalStateException("not readable");
        }
    }

    /** Polymorphism by declared logical names, which stays allowed. */
    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({
        @JsonSubTypes.Type(value = Circle.class, name = "circle"),
        @JsonSubTypes.Type(value = Square.class, name = "square")
    })
    public interface Shape {}

    public record Circle(double radius) implements Shape {}

    public record Square(double side) implements Shape {}

    private static final PolymorphicTypeValidator ALLOW_EVERY_CLASS =
            BasicPolymorphicTypeValidator.builder().allowIfSubType(Object.class).build();
    private static final String GADGET = Gadget.class.getName();
    private static final String CLASS_PROPERTY_ATTACK =
            "{\"step\":{\"@class\":\"" + GADGET + "\",\"command\":\"touch /tmp/pwned\"}}";
    private static final String DEFAULT_TYPING_ATTACK = "{\"name\":\"n\","
            + "\"data\":[\"" + GADGET + "\",{\"command\":\"touch /tmp/pwned\"}],"
            + "\"step\":[\"" + GADGET + "\",{\"command\":\"touch /tmp/pwned\"}]}";

    @BeforeEach
    void reset() {
        Gadget.CREATED.set(0);
        Gadget.COMMANDS.set(0);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static ObjectMapper trustingMapper() {
        return JsonMapper.builder()
                .activateDefaultTyping(ALLOW_EVERY_CLASS, DefaultTyping.NON_FINAL)
                .build();
    }

    @Test
    void roundTrip_recordWithInstantAndList_isEqual() {
        Jackson3Codec<Order> codec = Jackson3Codec.of(Order.class);
        Order order = new Order("o-1", Instant.parse("2026-03-01T12:34:56.789123456Z"), List.of("tea", "cake"));

        byte[] body = codec.encode(order);

        assertThat(codec.decode(body)).isEqualTo(order);
        assertThat(new String(body, StandardCharsets.UTF_8))
                .as("java.time without a module, as ISO-8601")
                .contains("\"2026-03-01T12:34:56.789123456Z\"");
    }

    @Test
    void roundTrip_genericTypeReference_keepsTheElementType() {
        Jackson3Codec<List<Order>> codec = Jackson3Codec.of(new JsonMapper(), new TypeReference<List<Order>>() {});
        List<Order> orders =
                List.of(new Order("a", Instant.EPOCH, List.of()), new Order("b", Instant.EPOCH, List.of("x")));

        List<Order> decoded = codec.decode(codec.encode(orders));

        assertThat(decoded).isEqualTo(orders);
        assertThat(decoded).first().isInstanceOf(Order.class);
        assertThat(codec).hasToString("Jackson3Codec[java.util.List<" + Order.class.getName() + ">]");
    }

    @Test
    void roundTrip_javaType_keepsTheValueType() {
        ObjectMapper mapper = new JsonMapper();
        Jackson3Codec<Map<String, Order>> codec = Jackson3Codec.of(
                mapper, mapper.getTypeFactory().constructMapType(Map.class, String.class, Order.class));
        Map<String, Order> orders = Map.of("a", new Order("a", Instant.EPOCH, List.of("x")));

        Map<String, Order> decoded = codec.decode(codec.encode(orders));

        assertThat(decoded).isEqualTo(orders);
        assertThat(decoded.get("a")).isInstanceOf(Order.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{not json", "", "{\"id\":\"o-1\",", "[1,2]", "{\"placedAt\":\"yesterday\"}"})
    void decode_malformedBody_throwsSerializationExceptionNamingTheType(String body) {
        Jackson3Codec<Order> codec = Jackson3Codec.of(Order.class);

        assertThatThrownBy(() -> codec.decode(utf8(body)))
                .isInstanceOf(SerializationException.class)
                .hasMessageStartingWith("cannot decode JSON body as " + Order.class.getName() + ": ")
                .hasCauseInstanceOf(JacksonException.class);
    }

    @Test
    void decode_jsonNullBody_throwsSerializationExceptionNamingTheType() {
        Jackson3Codec<Order> codec = Jackson3Codec.of(Order.class);

        assertThatThrownBy(() -> codec.decode(utf8("null")))
                .isInstanceOf(SerializationException.class)
                .hasMessage("JSON body is null, expected " + Order.class.getName());
    }

    @Test
    void encode_null_throwsNullPointerException() {
        Jackson3Codec<Order> codec = Jackson3Codec.of(Order.class);

        assertThatNullPointerException().isThrownBy(() -> codec.encode(null)).withMessage("payload");
    }

    @Test
    void encode_unwritablePayload_throwsSerializationExceptionWithTheCause() {
        Jackson3Codec<Unwritable> codec = Jackson3Codec.of(Unwritable.class);

        assertThatThrownBy(() -> codec.encode(new Unwritable()))
                .isInstanceOf(SerializationException.class)
                .hasMessageStartingWith("cannot encode " + Unwritable.class.getName() + " as JSON: ")
                .hasCauseInstanceOf(JacksonException.class);
    }

    @Test
    void of_nullArguments_throwNullPointerException() {
        ObjectMapper mapper = new JsonMapper();
        assertThatNullPointerException()
                .isThrownBy(() -> Jackson3Codec.of((Class<?>) null))
                .withMessage("type");
        assertThatNullPointerException()
                .isThrownBy(() -> Jackson3Codec.of(null, Order.class))
                .withMessage("mapper");
        assertThatNullPointerException()
                .isThrownBy(() -> Jackson3Codec.of(mapper, (Class<?>) null))
                .withMessage("type");
        assertThatNullPointerException()
                .isThrownBy(() -> Jackson3Codec.of(mapper, (TypeReference<?>) null))
                .withMessage("type");
        assertThatNullPointerException()
                .isThrownBy(() -> Jackson3Codec.of(null, new TypeReference<List<Order>>() {}))
                .withMessage("mapper");
    }

    @Test
    void decode_classNameTypeInfo_isRefused() {
        new JsonMapper().readValue(CLASS_PROPERTY_ATTACK, ClassTagged.class);
        assertThat(Gadget.CREATED).as("the attack works on a plain mapper").hasPositiveValue();
        reset();

        Jackson3Codec<ClassTagged> codec = Jackson3Codec.of(ClassTagged.class);

        assertThatThrownBy(() -> codec.decode(utf8(CLASS_PROPERTY_ATTACK)))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining(ClassTagged.class.getName())
                .hasMessageContaining(GADGET)
                .hasCauseInstanceOf(JacksonException.class);
        assertThat(Gadget.CREATED).as("gadgets instantiated").hasValue(0);
        assertThat(Gadget.COMMANDS).hasValue(0);
    }

    @Test
    void decode_minimalClassTypeInfo_isRefused() {
        String body = "{\"step\":{\"@c\":\".Jackson3CodecTest$Gadget\",\"command\":\"touch /tmp/pwned\"}}";
        new JsonMapper().readValue(body, MinimalClassTagged.class);
        assertThat(Gadget.CREATED).as("the attack works on a plain mapper").hasPositiveValue();
        reset();

        Jackson3Codec<MinimalClassTagged> codec = Jackson3Codec.of(MinimalClassTagged.class);

        assertThatThrownBy(() -> codec.decode(utf8(body))).isInstanceOf(SerializationException.class);
        assertThat(Gadget.CREATED).hasValue(0);
    }

    @Test
    void decode_classNameTypeInfo_doesNotEvenInitializeTheNamedClass() {
        String body = "{\"step\":{\"@class\":\"" + InitializerGadget.class.getName() + "\"}}";
        Jackson3Codec<ClassTagged> codec = Jackson3Codec.of(ClassTagged.class);

        assertThatThrownBy(() -> codec.decode(utf8(body))).isInstanceOf(SerializationException.class);
        assertThat(Loaded.INITIALIZED).as("static initializers run").hasValue(0);
    }

    @Test
    void decode_classTypeInfoPropertyLeftEmpty_stillDecodes() {
        Jackson3Codec<ClassTagged> codec = Jackson3Codec.of(ClassTagged.class);

        assertThat(codec.decode(utf8("{\"step\":null}"))).isEqualTo(new ClassTagged(null));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "java.util.concurrent.atomic.AtomicReference",
                "io.queuekit.jackson3.Jackson3CodecTest$Gadget",
                "com.sun.rowset.JdbcRowSetImpl",
                "org.springframework.context.support.ClassPathXmlApplicationContext",
                "ch.qos.logback.core.db.DriverManagerConnectionSource",
                "com.zaxxer.hikari.HikariConfig",
                "java.lang.ProcessBuilder",
                "javax.script.ScriptEngineManager"
            })
    void decode_classNameTypeInfo_isRefused_evenWhenTheCallersMapperAllowsEveryClass(String className) {
        ObjectMapper permissive =
                JsonMapper.builder().polymorphicTypeValidator(ALLOW_EVERY_CLASS).build();
        String body = "{\"data\":{\"@class\":\"" + className + "\",\"dataSourceName\":\"ldap://attacker/x\"}}";
        String harmless = "{\"data\":{\"@class\":\"" + AtomicReference.class.getName() + "\"}}";
        assertThat(permissive.readValue(harmless, ObjectClassTagged.class).data())
                .as("the caller's mapper instantiates what the body names")
                .isInstanceOf(AtomicReference.class);

        Jackson3Codec<ObjectClassTagged> codec = Jackson3Codec.of(permissive, ObjectClassTagged.class);

        assertThatThrownBy(() -> codec.decode(utf8(body)))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining(ObjectClassTagged.class.getName())
                .hasMessageContaining(className);
        assertThat(Gadget.CREATED).hasValue(0);
    }

    @Test
    void decode_withDefaultTypingMapper_classNamesInTheBodyInstantiateNothing() {
        ObjectMapper trusting = trustingMapper();
        trusting.readValue(DEFAULT_TYPING_ATTACK, Untyped.class);
        assertThat(Gadget.CREATED).as("the attack works on the caller's mapper").hasPositiveValue();
        reset();

        Jackson3Codec<Untyped> codec = Jackson3Codec.of(trusting, Untyped.class);

        assertThatThrownBy(() -> codec.decode(utf8(DEFAULT_TYPING_ATTACK)))
                .as("a class name where a Step is expected")
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining(Untyped.class.getName());
        String onlyObject = "{\"name\":\"n\",\"data\":[\"" + GADGET + "\",{\"command\":\"touch /tmp/pwned\"}]}";
        Untyped decoded = codec.decode(utf8(onlyObject));
        assertThat(decoded.data())
                .as("the class name is data")
                .isEqualTo(List.of(GADGET, Map.of("command", "touch /tmp/pwned")));
        assertThat(Gadget.CREATED).as("gadgets instantiated").hasValue(0);
        assertThat(Gadget.COMMANDS).hasValue(0);
    }

    @Test
    void of_callersMapper_isNotChanged() {
        ObjectMapper trusting = trustingMapper();
        PolymorphicTypeValidator before = trusting.deserializationConfig().getPolymorphicTypeValidator();

        Jackson3Codec.of(trusting, Untyped.class);

        assertThat(trusting.deserializationConfig().getDefaultTyper(null))
                .as("default typing, still the caller's choice")
                .isNotNull();
        assertThat(trusting.serializationConfig().getDefaultTyper(null)).isNotNull();
        assertThat(trusting.deserializationConfig().getPolymorphicTypeValidator())
                .isSameAs(before);
        trusting.readValue(DEFAULT_TYPING_ATTACK, Untyped.class);
        assertThat(Gadget.CREATED)
                .as("the caller's mapper still trusts type information")
                .hasPositiveValue();
    }

    @Test
    void of_callersMapper_keepsItsOtherSettings() {
        ObjectMapper snakeCase = JsonMapper.builder()
                .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .build();
        Jackson3Codec<Order> codec = Jackson3Codec.of(snakeCase, Order.class);
        Order order = new Order("o-1", Instant.EPOCH, List.of("tea"));

        byte[] body = codec.encode(order);

        assertThat(new String(body, StandardCharsets.UTF_8)).contains("\"placed_at\"");
        assertThat(codec.decode(body)).isEqualTo(order);
    }

    @Test
    void decode_logicalSubTypeNames_stillWork() {
        Jackson3Codec<Shape> codec = Jackson3Codec.of(Shape.class);

        assertThat(codec.decode(utf8("{\"type\":\"circle\",\"radius\":2.0}"))).isEqualTo(new Circle(2.0));
        assertThat(codec.decode(utf8("{\"type\":\"square\",\"side\":3.0}"))).isEqualTo(new Square(3.0));
        assertThat(new String(codec.encode(new Circle(1.0)), StandardCharsets.UTF_8))
                .contains("\"type\":\"circle\"");
        assertThat(codec.decode(codec.encode(new Square(1.5)))).isEqualTo(new Square(1.5));
    }

    @Test
    void decode_unknownLogicalSubTypeName_throwsSerializationException() {
        Jackson3Codec<Shape> codec = Jackson3Codec.of(Shape.class);

        assertThatThrownBy(() -> codec.decode(utf8("{\"type\":\"" + GADGET + "\",\"command\":\"x\"}")))
                .isInstanceOf(SerializationException.class)
                .hasMessageContaining(Shape.class.getName());
        assertThat(Gadget.CREATED).hasValue(0);
    }

    @Test
    void toString_namesTheType() {
        assertThat(Jackson3Codec.of(Order.class)).hasToString("Jackson3Codec[" + Order.class.getName() + "]");
    }
}
