package io.queuekit.redis.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.QueueException;
import io.queuekit.testing.RedisServerTest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;

@RedisServerTest
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LuaScriptTest {
    private static final String DIR = "/io/queuekit/redis/internal/";
    /** A transport's includes, then the core's. */
    private static final List<String> INCLUDES = List.of(DIR + "own/", DIR + "core/");

    private final RedisClient client;

    LuaScriptTest(RedisClient client) {
        this.client = client;
    }

    private static LuaScript compose(String operation) {
        return LuaScript.compose(LuaScriptTest.class, INCLUDES, DIR + operation);
    }

    private Object run(LuaScript script) {
        Object reply = script.eval(client, List.of("lua-script-test".getBytes(StandardCharsets.UTF_8)), List.of());
        return reply instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : reply;
    }

    @Test
    void compose_putsTheOperationsHeaderFirst_thenWhatItIncludes_thenTheRest() {
        LuaScript s = compose("op.lua");

        String source = s.source();
        assertThat(source)
                .startsWith("-- ARGV[1] id. Returns its body.\n-- KEYS: 1 layout, 2 body, 3 dead\nlocal PREFIX");
        assertThat(source.indexOf("local function body_of")).isLessThan(source.indexOf("return body_of(ARGV[1])"));
        assertThat(source).doesNotContain("@include");
        assertThat(s.keys()).containsExactly("layout", "body", "dead");
        assertThat(s.name()).isEqualTo("op.lua");
    }

    @Test
    void compose_readsEachDeclaredKeyAsItsKeysElement_outsideStringsAndComments_andLeavesOthersAsWritten() {
        String source = compose("op.lua").source();

        assertThat(source)
                .contains(
                        "redis.call('HGET', KEYS[2], key_of(id))",
                        "'K_BODY in a string'",
                        "-- K_BODY in a comment",
                        "redis.call('GET', K_UNDECLARED)");
        assertThat(source).doesNotContain("local K_");
    }

    @Test
    void compose_takesEachIncludeOnce_afterWhatItIncludes_andNothingElse() {
        String source = compose("op.lua").source();

        // op includes body_of and key_of; body_of includes key_of and prefix; key_of includes prefix
        assertThat(source.indexOf("local PREFIX")).isLessThan(source.indexOf("local function key_of"));
        assertThat(source.indexOf("local function key_of")).isLessThan(source.indexOf("local function body_of"));
        assertThat(source.split("local PREFIX", -1)).hasSize(2);
        assertThat(source.split("local function key_of", -1)).hasSize(2);
        assertThat(source).doesNotContain("unused_helper").doesNotContain("-- core");
    }

    @Test
    void compose_definesWhatAnIncludeCalls_beforeTheIncludeThatCallsIt() {
        // outer calls inner: defined after outer, inner would be a global that Redis refuses to read
        LuaScript s = compose("outer_op.lua");

        assertThat(s.source().indexOf("local function inner"))
                .isLessThan(s.source().indexOf("local function outer"));
        assertThat(run(s)).isEqualTo("inner through outer");
    }

    @Test
    void compose_findsEachIncludeInTheFirstFolderThatHasIt() {
        assertThat(run(compose("hook_op.lua"))).isEqualTo("the transport hook");
        assertThat(run(LuaScript.compose(LuaScriptTest.class, List.of(DIR + "core/"), DIR + "hook_op.lua")))
                .isEqualTo("the core hook");
    }

    @Test
    void compose_refusesAnIncludeInNoFolder_namingTheScriptTheIncludeAndTheFileThatNamesIt() {
        assertThatThrownBy(() -> compose("missing_include.lua"))
                .isInstanceOf(QueueException.class)
                .hasMessage(DIR + "missing_include.lua: include \"nowhere\" of " + DIR
                        + "missing_include.lua is in none of " + INCLUDES);
        assertThatThrownBy(() -> compose("missing_nested.lua"))
                .isInstanceOf(QueueException.class)
                .hasMessageStartingWith(
                        DIR + "missing_nested.lua: include \"nowhere\" of " + DIR + "core/needs_nowhere.lua");
    }

    @Test
    void compose_refusesIncludesThatFormACycle_namingIt() {
        assertThatThrownBy(() -> compose("cycle.lua"))
                .isInstanceOf(QueueException.class)
                .hasMessage(DIR + "cycle.lua: includes form a cycle: cycle_a -> cycle_b -> cycle_a");
    }

    @Test
    void compose_refusesAMalformedIncludeLine() {
        assertThatThrownBy(() -> compose("malformed.lua"))
                .isInstanceOf(QueueException.class)
                .hasMessageContaining(
                        "malformed.lua has an include line that is not --- @include \"name\": --- @include inner");
    }

    @Test
    void compose_refusesAnOperationThatDeclaresNoKeys_orDeclaresThemOutOfOrder() {
        assertThatThrownBy(() -> compose("nokeys.lua"))
                .isInstanceOf(QueueException.class)
                .hasMessageContaining("must declare its keys");
        assertThatThrownBy(() -> compose("unordered.lua"))
                .isInstanceOf(QueueException.class)
                .hasMessageContaining("in order");
        assertThatThrownBy(() -> compose("surplus.lua"))
                .isInstanceOf(QueueException.class)
                .hasMessageContaining("more KEYS");
        assertThatThrownBy(() -> compose("missing.lua"))
                .isInstanceOf(QueueException.class)
                .hasMessageContaining("not found");
    }
}
