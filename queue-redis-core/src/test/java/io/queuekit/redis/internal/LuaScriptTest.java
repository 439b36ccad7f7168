package io.queuekit.redis.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.QueueException;
import java.util.List;
import org.junit.jupiter.api.Test;

class LuaScriptTest {
    private static final String DIR = "/io/queuekit/redis/internal/";

    @Test
    void compose_putsTheOperationsHeaderFirst_thenTheSharedFiles_thenTheRest() {
        LuaScript s = LuaScript.compose(LuaScriptTest.class, List.of(DIR + "shared.lua"), DIR + "op.lua");

        String source = s.source();
        assertThat(source).startsWith("-- ARGV[1] id. Returns its body.\n-- KEYS: 1 layout, 2 body, 3 dead\nlocal PREFIX");
        assertThat(source.indexOf("local function body_of")).isLessThan(source.indexOf("return body_of(ARGV[1])"));
        assertThat(s.keys()).containsExactly("layout", "body", "dead");
        assertThat(s.name()).isEqualTo("op.lua");
    }

    @Test
    void compose_readsEachDeclaredKeyAsItsKeysElement_outsideStringsAndComments_andLeavesOthersAsWritten() {
        String source = LuaScript.compose(LuaScriptTest.class, List.of(DIR + "shared.lua"), DIR + "op.lua").source();

        assertThat(source).contains("redis.call('HGET', KEYS[2], key_of(id))", "'K_BODY in a string'",
                "-- K_BODY in a comment", "redis.call('GET', K_UNDECLARED)");
        assertThat(source).doesNotContain("local K_");
    }

    @Test
    void compose_takesOnlyTheSharedDefinitionsTheOperationNeeds_directlyOrThroughOthers_inTheirOrder() {
        String source = LuaScript.compose(LuaScriptTest.class, List.of(DIR + "shared.lua"), DIR + "op.lua").source();

        assertThat(source).contains("local PREFIX = 'body:'", "local function key_of(id)", "local function body_of(id)");
        assertThat(source.indexOf("local PREFIX")).isLessThan(source.indexOf("local function key_of"));
        assertThat(source.indexOf("local function key_of")).isLessThan(source.indexOf("local function body_of"));
        assertThat(source).doesNotContain("unused_helper").doesNotContain("-- shared");
    }

    @Test
    void compose_refusesAnOperationThatDeclaresNoKeys_orDeclaresThemOutOfOrder() {
        assertThatThrownBy(() -> LuaScript.compose(LuaScriptTest.class, List.of(), DIR + "nokeys.lua"))
                .isInstanceOf(QueueException.class).hasMessageContaining("must declare its keys");
        assertThatThrownBy(() -> LuaScript.compose(LuaScriptTest.class, List.of(), DIR + "unordered.lua"))
                .isInstanceOf(QueueException.class).hasMessageContaining("in order");
        assertThatThrownBy(() -> LuaScript.compose(LuaScriptTest.class, List.of(), DIR + "surplus.lua"))
                .isInstanceOf(QueueException.class).hasMessageContaining("more KEYS");
        assertThatThrownBy(() -> LuaScript.compose(LuaScriptTest.class, List.of(), DIR + "missing.lua"))
                .isInstanceOf(QueueException.class).hasMessageContaining("not found");
    }
}
