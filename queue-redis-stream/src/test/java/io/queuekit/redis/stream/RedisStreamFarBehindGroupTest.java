package io.queuekit.redis.stream;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.queuekit.Codec;
import io.queuekit.ConsumerGroup;
import io.queuekit.Delivery;
import io.queuekit.GroupInfo;
import io.queuekit.testing.LogCapture;
import io.queuekit.testing.RedisServerTest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.StreamEntryID;
import redis.clients.jedis.params.XReadGroupParams;

/**
 * A group far behind a hard-capped stream: the cap removes far more than the group ever read, and
 * the group is told, never skipped silently; so is a subscription that soft retention overtakes. Runs alone: its {@link LogCapture} replaces
 * {@code System.err} for the whole JVM.
 */
@Isolated
@Timeout(value = 60, unit = SECONDS)
@RedisServerTest
class RedisStreamFarBehindGroupTest {
    private static final int CAP = 20;
    private static final int PUBLISHED = 500;
    private static final int READ_BY_BEHIND = 5;

    private final RedisClient client;

    RedisStreamFarBehindGroupTest(RedisClient client) {
        this.client = client;
    }

    @Test
    void aGroupFarBehindAHardCap_countsWhatItMissed_getsTheRestInOrder_andIsLoggedAtWarn() throws Exception {
        String name = "far-behind-" + UUID.randomUUID();
        try (LogCapture log = new LogCapture();
                RedisStreamTopic<String> t = RedisStreamTopic.builder(client, name, Codec.utf8())
                        .hardMaxLength(CAP)
                        .build();
                ConsumerGroup<String> ahead = t.group("ahead");
                ConsumerGroup<String> behind = t.group("behind")) {
            t.publishAll(payloads(0, READ_BY_BEHIND));
            assertThat(takeAndAck(ahead, READ_BY_BEHIND)).containsExactlyElementsOf(payloads(0, READ_BY_BEHIND));
            assertThat(takeAndAck(behind, READ_BY_BEHIND)).containsExactlyElementsOf(payloads(0, READ_BY_BEHIND));
            // ahead keeps up batch by batch; behind reads nothing more while the cap removes 475 it never read
            for (int from = READ_BY_BEHIND; from < PUBLISHED; from += 5) {
                t.publishAll(payloads(from, from + 5));
                assertThat(takeAndAck(ahead, 5)).containsExactlyElementsOf(payloads(from, from + 5));
            }

            long removed = PUBLISHED - CAP;
            assertThat(t.size()).isEqualTo(CAP);
            assertThat(t.groups())
                    .extracting(GroupInfo::name, GroupInfo::missed)
                    .containsExactly(tuple("ahead", 0L), tuple("behind", removed - READ_BY_BEHIND));

            List<String> rest = new ArrayList<>();
            Delivery<String> d;
            while ((d = behind.poll(1, SECONDS)) != null) {
                rest.add(d.payload());
                assertThat(d.ack()).isTrue();
            }
            assertThat(rest)
                    .as("what the cap left, in order, and nothing it removed or behind had acked")
                    .containsExactlyElementsOf(payloads(PUBLISHED - CAP, PUBLISHED));
            // not lag: the server's counter (XINFO GROUPS) still counts the entries XTRIM removed unread
            assertThat(behind.info())
                    .extracting(GroupInfo::pending, GroupInfo::dead, GroupInfo::missed)
                    .containsExactly(0L, 0L, removed - READ_BY_BEHIND);

            List<LogCapture.Record> warned = log.records("queuekit " + name + ": the hard max length").stream()
                    .filter(r -> r.line().contains(" WARN "))
                    .toList();
            // rate-limited to a line per 10 s: not one per publish (95 of them removed entries)
            assertThat(warned).hasSizeBetween(1, 6);
            assertThat(warned.get(0).line()).contains("a group is far behind");
        }
    }

    @Test
    void softRetentionPastASubscription_countsWhatItHadNotRead_asMissed_andIsLoggedAtWarn() throws Exception {
        String name = "past-subscription-" + UUID.randomUUID();
        try (LogCapture log = new LogCapture();
                RedisStreamTopic<String> t = RedisStreamTopic.builder(client, name, Codec.utf8())
                        .maxLength(2)
                        .build();
                ConsumerGroup<String> g = t.group("g")) {
            // a subscription's group whose process stopped reading (or died): it read m0 and m1 only
            String stream = "queuekit:{" + name + "}:stream";
            t.publishAll(payloads(0, 2));
            client.xgroupCreate(stream, "~stalled", new StreamEntryID(0, 0), false);
            client.xreadGroup(
                    "~stalled",
                    "c",
                    XReadGroupParams.xReadGroupParams().count(2),
                    Map.of(stream, StreamEntryID.XREADGROUP_UNDELIVERED_ENTRY));
            t.publishAll(payloads(2, 10));
            assertThat(takeAndAck(g, 10)).containsExactlyElementsOf(payloads(0, 10));

            assertThat(t.trimNow()).as("down to the max length: g acked all").isEqualTo(8);

            assertThat(t.groups())
                    .extracting(GroupInfo::name, GroupInfo::missed)
                    .containsExactly(tuple("g", 0L), tuple("~stalled", 6L)); // m2 to m7, never read
            assertThat(t.trimNow()).isZero();
            assertThat(t.groups()).extracting(GroupInfo::missed).containsExactly(0L, 6L);
            List<LogCapture.Record> warned = log.records("queuekit " + name + ": soft retention").stream()
                    .filter(r -> r.line().contains(" WARN "))
                    .toList();
            assertThat(warned).hasSize(1);
            assertThat(warned.get(0).line()).contains("removed 6 entries before a subscription read them");
        }
    }

    private static List<String> payloads(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> "m" + i).toList();
    }

    private static List<String> takeAndAck(ConsumerGroup<String> g, int n) throws InterruptedException {
        List<String> got = new ArrayList<>();
        while (got.size() < n) {
            Delivery<String> d = g.poll(5, SECONDS);
            assertThat(d).as("delivery %d of %d", got.size() + 1, n).isNotNull();
            got.add(d.payload());
            assertThat(d.ack()).isTrue();
        }
        return got;
    }
}
