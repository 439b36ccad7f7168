package io.queuekit.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.MessageId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GeneratedIdsTest {

    @Test
    void counting_givesTheMarkAndACounterInBase36() {
        GeneratedIds ids = GeneratedIds.counting();
        List<String> first = new ArrayList<>();
        for (int i = 0; i < 37; i++) {
            first.add(ids.next().value());
        }
        assertThat(first)
                .startsWith("@1", "@2")
                .contains("@9", "@a", "@z", "@10")
                .endsWith("@11");
        assertThat(ids.next().isGenerated()).isTrue();
    }

    @Test
    void ofInstance_idsAreDistinct_endWithTheSuffix_andDifferFromServerCounterIds() {
        GeneratedIds ids = GeneratedIds.ofInstance("~2");
        Set<MessageId> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            MessageId id = ids.next();
            assertThat(id.value()).matches("@[0-9a-z]{12}\\.[0-9a-z]+~2");
            seen.add(id);
        }
        assertThat(seen).hasSize(10_000);
        assertThat(GeneratedIds.ofInstance("").next())
                .isNotEqualTo(GeneratedIds.ofInstance("").next());
        assertThat(GeneratedIds.ofInstance("").next().value()).doesNotContain("~");
    }
}
