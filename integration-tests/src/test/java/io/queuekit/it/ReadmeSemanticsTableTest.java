package io.queuekit.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.Broadcaster;
import io.queuekit.Codec;
import io.queuekit.MessageQueue;
import io.queuekit.Semantics;
import io.queuekit.Topic;
import io.queuekit.inmemory.InMemoryBroadcaster;
import io.queuekit.inmemory.InMemoryDelayQueue;
import io.queuekit.inmemory.InMemoryMessageQueue;
import io.queuekit.inmemory.InMemoryTopic;
import io.queuekit.redis.list.RedisListQueue;
import io.queuekit.redis.pubsub.RedisBroadcaster;
import io.queuekit.redis.stream.RedisStreamTopic;
import io.queuekit.redis.zset.RedisDelayQueue;
import io.queuekit.testing.RedisServerTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;

/**
 * The comparison tables of the README and of docs/choosing-a-transport.md are the transports' own
 * Semantics values, so they cannot drift from them.
 */
@Timeout(60)
@RedisServerTest
class ReadmeSemanticsTableTest {
    private static final String START = "<!-- semantics-table:start -->";
    private static final String END = "<!-- semantics-table:end -->";

    @Test
    void readmeTable_isWhatTheTransportsDeclare(RedisClient client) throws IOException {
        List<Semantics> rows = new ArrayList<>();
        for (MessageQueue<String> q : List.of(
                RedisListQueue.builder(client, "readme", Codec.utf8()).build(),
                RedisListQueue.builder(client, "readme", Codec.utf8())
                        .guarantee(Semantics.Guarantee.AT_MOST_ONCE)
                        .build(),
                RedisDelayQueue.builder(client, "readme", Codec.utf8()).build(),
                RedisListQueue.builder(client, "readme", Codec.utf8())
                        .shards(3)
                        .shardBy(p -> p)
                        .build(),
                RedisListQueue.builder(client, "readme", Codec.utf8()).shards(3).build(),
                RedisDelayQueue.builder(client, "readme", Codec.utf8())
                        .shards(3)
                        .shardBy(p -> p)
                        .build(),
                RedisDelayQueue.builder(client, "readme", Codec.utf8())
                        .shards(3)
                        .build())) {
            rows.add(q.semantics());
            q.close();
        }
        try (Broadcaster<String> b =
                RedisBroadcaster.builder(client, "readme", Codec.utf8()).build()) {
            rows.add(b.semantics());
        }
        try (Topic<String> t =
                RedisStreamTopic.builder(client, "readme", Codec.utf8()).build()) {
            rows.add(t.semantics());
            rows.add(t.group("readme").semantics());
            t.deleteGroup("readme");
        }
        for (RedisStreamTopic.Builder<String> sharded : List.of(
                RedisStreamTopic.builder(client, "readme-sharded", Codec.utf8())
                        .shards(3)
                        .shardBy(p -> p),
                RedisStreamTopic.builder(client, "readme-sharded", Codec.utf8()).shards(3))) {
            try (Topic<String> t = sharded.build()) {
                rows.add(t.semantics());
                rows.add(t.group("readme").semantics());
                t.deleteGroup("readme");
            }
        }
        try (MessageQueue<String> q = InMemoryMessageQueue.create("readme");
                MessageQueue<String> amo = InMemoryMessageQueue.<String>builder("readme")
                        .guarantee(Semantics.Guarantee.AT_MOST_ONCE)
                        .build();
                MessageQueue<String> d = InMemoryDelayQueue.create("readme");
                Broadcaster<String> b = InMemoryBroadcaster.create("readme");
                Topic<String> t = InMemoryTopic.create("readme")) {
            rows.add(q.semantics());
            rows.add(amo.semantics());
            rows.add(d.semantics());
            rows.add(b.semantics());
            rows.add(t.semantics());
            rows.add(t.group("readme").semantics());
        }

        String table = Semantics.markdownTable(rows).strip();
        for (Path page : List.of(Path.of("..", "README.md"), Path.of("..", "docs", "choosing-a-transport.md"))) {
            assertThat(tableIn(page)).as("the semantics table of " + page).isEqualTo(table);
        }
    }

    private static String tableIn(Path page) throws IOException {
        String text = Files.readString(page, StandardCharsets.UTF_8);
        int start = text.indexOf(START);
        int end = text.indexOf(END);
        assertThat(start).as(page + " has the marker " + START).isNotNegative();
        assertThat(end).as(page + " has the marker " + END).isGreaterThan(start);
        return text.substring(start + START.length(), end).strip();
    }
}
