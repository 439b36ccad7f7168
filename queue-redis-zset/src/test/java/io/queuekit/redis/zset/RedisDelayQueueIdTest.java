package io.queuekit.redis.zset;

import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.Codec;
import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.Scheduled;
import io.queuekit.testing.RedisServerTest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;

/** Generated ids stay unique when the id counter starts over (its key deleted by hand, say). */
@RedisServerTest
class RedisDelayQueueIdTest {
    private final RedisClient client;

    RedisDelayQueueIdTest(RedisClient client) {
        this.client = client;
    }

    @Test
    @Timeout(30)
    void aCounterStartedOver_neverGivesAnIdStillStored_oneOrManyPerCall() throws InterruptedException {
        String name = "ids-" + UUID.randomUUID();
        try (RedisDelayQueue<String> q =
                RedisDelayQueue.builder(client, name, Codec.utf8()).build()) {
            String counter = "queuekit:{" + name + "}:seq";
            List<MessageId> ids = new ArrayList<>(q.sendAll(List.of("a", "b", "c")));
            client.del(counter);
            ids.add(q.send("d"));
            client.del(counter);
            ids.addAll(q.sendAll(List.of("e", "f")));
            client.del(counter);
            ids.addAll(q.scheduleEach(List.of(Scheduled.at("g", Instant.now()), Scheduled.at("h", Instant.now()))));
            client.del(counter);
            ids.addAll(q.scheduleEach(List.of(Scheduled.at("i", Instant.now()))));

            assertThat(new HashSet<>(ids)).as("ids").hasSize(9);
            Set<String> got = new HashSet<>();
            for (Delivery<String> d : q.pollBatch(100, 1, TimeUnit.SECONDS)) {
                got.add(d.payload());
                d.ack();
            }
            assertThat(got)
                    .as("every message kept its own body")
                    .containsExactlyInAnyOrder("a", "b", "c", "d", "e", "f", "g", "h", "i");
        }
    }
}
