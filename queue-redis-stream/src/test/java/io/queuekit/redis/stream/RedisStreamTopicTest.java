package io.queuekit.redis.stream;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.queuekit.Codec;
import io.queuekit.ConsumerGroup;
import io.queuekit.Delivery;
import io.queuekit.GroupInfo;
import io.queuekit.MessageId;
import io.queuekit.QueueClosedException;
import io.queuekit.QueueException;
import io.queuekit.Semantics;
import io.queuekit.TransportException;
import io.queuekit.spi.QueueMetrics;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisMonitor;
import redis.clients.jedis.RedisClient;

/** What the stream topic does beyond the contract: retention, fencing, bounded passes, its builder. */
@Timeout(value = 60, unit = SECONDS)
@RedisServerTest
class RedisStreamTopicTest {
    private final RedisClient client;
    private final List<AutoCloseable> closeAfter = new ArrayList<>();

    RedisStreamTopicTest(RedisClient client) {
        this.client = client;
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : closeAfter) {
            c.close();
        }
    }

    private RedisStreamTopic.Builder<String> builder() {
        return RedisStreamTopic.builder(client, "stream-test-" + UUID.randomUUID(), Codec.utf8());
    }

    private <C extends AutoCloseable> C track(C c) {
        closeAfter.add(c);
        return c;
    }

    private static List<String> messages(int n) {
        return IntStream.range(0, n).mapToObj(i -> "m" + i).toList();
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

    @Test
    void semantics_ofTheTopicAndOfEachGroup() {
        RedisStreamTopic<String> t = track(builder().build());
        assertThat(t.semantics())
                .isEqualTo(new Semantics(
                        "redis-stream",
                        Semantics.Guarantee.AT_LEAST_ONCE,
                        Semantics.Ordering.PUBLISH_ORDER,
                        true,
                        true,
                        false));
        assertThat(t.group("g").semantics())
                .isEqualTo(new Semantics(
                        "redis-stream",
                        Semantics.Guarantee.AT_LEAST_ONCE,
                        Semantics.Ordering.FIFO,
                        true,
                        false,
                        false));
    }

    @Test
    void builder_refusesReplicas_badShards_andRetentionThatCannotHold() {
        assertThatThrownBy(() -> builder().shards(0)).hasMessageContaining("shards must be 1 to 256");
        assertThatThrownBy(() -> builder().shardBy(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> builder().replicas(1, Duration.ofSeconds(1)))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("replicas");
        assertThatThrownBy(() -> builder().maxLength(0)).hasMessageContaining("max length must be positive");
        assertThatThrownBy(() -> builder().hardMaxLength(-1)).hasMessageContaining("hard max length");
        assertThatThrownBy(() -> builder().maxAge(Duration.ZERO)).hasMessageContaining("max age");
        assertThatThrownBy(() -> builder().maxLength(10).hardMaxLength(5).build())
                .hasMessageContaining("above the hard max length");
    }

    @Test
    void ids_areGenerated_andNameTheStreamEntry() {
        RedisStreamTopic<String> t = track(builder().build());
        ConsumerGroup<String> g = track(t.group("g"));

        MessageId id = g.send("m");

        assertThat(id.isGenerated()).isTrue();
        assertThat(id.value()).matches("@\\d+-\\d+");
        assertThatThrownBy(() -> t.group("h", io.queuekit.Position.after(MessageId.of("order-1"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("order-1");
    }

    // ---- fencing

    @Test
    void staleHolder_settlesNothing_afterAnotherObjectClaimedItsMessage() throws Exception {
        RedisStreamTopic<String> t1 =
                track(builder().visibilityTimeout(Duration.ofMillis(200)).build());
        RedisStreamTopic<String> t2 = track(RedisStreamTopic.builder(client, t1.name(), Codec.utf8())
                .visibilityTimeout(Duration.ofMillis(200))
                .build());
        ConsumerGroup<String> a = track(t1.group("g"));
        ConsumerGroup<String> b = track(t2.group("g"));
        a.send("m");
        Delivery<String> stale = a.poll(5, SECONDS);
        assertThat(stale.attempt()).isEqualTo(1);

        Delivery<String> fresh = b.poll(5, SECONDS); // after the lease expired
        assertThat(fresh).isNotNull();
        assertThat(fresh.attempt()).isEqualTo(2);

        assertThat(stale.extendLease(Duration.ofSeconds(10))).isFalse();
        assertThat(stale.retry(Duration.ZERO)).isFalse();
        assertThat(stale.ack()).isFalse();
        assertThat(b.info().pending()).as("the fresh hand-out still holds it").isEqualTo(1);
        assertThat(fresh.ack()).isTrue();
        assertThat(b.info()).isEqualTo(new GroupInfo("g", 0, 0, 0, 0, false));
    }

    @Test
    void staleHolder_ofTheSameObject_cannotDeadLetterWhatAnotherReceiveClaimed() throws Exception {
        RedisStreamTopic<String> t =
                track(builder().visibilityTimeout(Duration.ofMillis(200)).build());
        ConsumerGroup<String> g = track(t.group("g"));
        g.send("m");
        Delivery<String> stale = g.poll(5, SECONDS);
        Delivery<String> fresh = g.poll(5, SECONDS);
        assertThat(fresh.attempt()).isEqualTo(2);

        assertThat(stale.deadLetter("stale")).isFalse();

        assertThat(g.deadLetters().size()).isZero();
        assertThat(fresh.deadLetter("fresh")).isTrue();
        assertThat(g.deadLetters().size()).isEqualTo(1);
    }

    @Test
    void metrics_ofSameNamedGroupsOfTwoTopics_areToldApartByTheTopic_andTheTopicsByThePrefix() {
        List<String> observed = new CopyOnWriteArrayList<>();
        QueueMetrics metrics = (name, transport, namespace, stats) -> {
            observed.add(name + " " + namespace);
            return QueueMetrics.Observer.NONE;
        };
        String a = "stream-test-" + UUID.randomUUID();
        String b = "stream-test-" + UUID.randomUUID();
        RedisStreamTopic<String> ta = track(RedisStreamTopic.builder(client, a, Codec.utf8())
                .metrics(metrics)
                .build());
        RedisStreamTopic<String> tb = track(RedisStreamTopic.builder(client, b, Codec.utf8())
                .metrics(metrics)
                .build());

        track(ta.group("billing"));
        track(tb.group("billing"));

        assertThat(observed)
                .containsExactlyInAnyOrder(
                        a + " queuekit",
                        b + " queuekit",
                        "billing queuekit:{" + a + "}",
                        "billing queuekit:{" + b + "}");
    }

    // ---- retention

    @Test
    void softMaxLength_neverTrimsWhatADurableGroupHasNotAcked() throws Exception {
        RedisStreamTopic<String> t = track(builder().maxLength(2).build());
        ConsumerGroup<String> fast = track(t.group("fast"));
        ConsumerGroup<String> slow = track(t.group("slow"));
        t.publishAll(messages(5));
        assertThat(takeAndAck(fast, 5)).containsExactlyElementsOf(messages(5));
        Delivery<String> held = slow.poll(5, SECONDS); // m0, in flight

        t.trimNow();
        assertThat(t.size()).as("slow holds m0 and has not read the rest").isEqualTo(5);

        held.ack();
        t.trimNow();
        assertThat(t.size())
                .as("m0 is acked by every group; the rest slow has not read")
                .isEqualTo(4);

        assertThat(takeAndAck(slow, 4)).containsExactly("m1", "m2", "m3", "m4");
        t.trimNow();
        assertThat(t.size()).as("down to the max length once every group acked").isEqualTo(2);
    }

    @Test
    void softRetention_isNotHeldBackBySubscriptions() throws Exception {
        RedisStreamTopic<String> t = track(builder().maxLength(1).build());
        ConsumerGroup<String> g = track(t.group("g"));
        track(t.subscribe(m -> Thread.sleep(60_000))); // holds its first message for good
        t.publishAll(messages(3));
        assertThat(takeAndAck(g, 3)).hasSize(3);

        t.trimNow();

        assertThat(t.size()).isEqualTo(1);
    }

    @Test
    void softMaxAge_trimsWhatEveryGroupAcked_onceOld() throws Exception {
        RedisStreamTopic<String> t =
                track(builder().maxAge(Duration.ofMillis(100)).build());
        ConsumerGroup<String> g = track(t.group("g"));
        t.publishAll(messages(3));
        assertThat(t.trimNow()).as("young").isZero();
        takeAndAck(g, 3);

        await().atMost(5, SECONDS).until(() -> t.trimNow() == 3);

        assertThat(t.size()).isZero();
    }

    @Test
    void softTrim_removesAtMostItsBoundInOnePass() throws Exception {
        RedisStreamTopic<String> t = track(builder().maxLength(10).build());
        ConsumerGroup<String> g = track(t.group("g"));
        t.publishAll(messages(2_500));
        List<Delivery<String>> got = new ArrayList<>();
        while (got.size() < 2_500) {
            got.addAll(g.pollBatch(1000, 5, SECONDS));
        }
        assertThat(g.ackAll(got)).isEqualTo(2_500);

        assertThat(t.trimNow()).isEqualTo(Retention.PASS_LIMIT);
        assertThat(t.trimNow()).isEqualTo(Retention.PASS_LIMIT);
        assertThat(t.trimNow()).isEqualTo(490);
        assertThat(t.size()).isEqualTo(10);
    }

    @Test
    void softTrim_withMaxLengthAndMaxAge_trimsByLength_whenFarOver() throws Exception {
        RedisStreamTopic<String> t =
                track(builder().maxLength(10).maxAge(Duration.ofHours(1)).build());
        ConsumerGroup<String> g = track(t.group("g"));
        t.publishAll(messages(2_500));
        List<Delivery<String>> got = new ArrayList<>();
        while (got.size() < 2_500) {
            got.addAll(g.pollBatch(1000, 5, SECONDS));
        }
        assertThat(g.ackAll(got)).isEqualTo(2_500);

        assertThat(t.trimNow()).as("the length allows more than a pass").isEqualTo(Retention.PASS_LIMIT);
        assertThat(t.trimNow()).isEqualTo(Retention.PASS_LIMIT);
        assertThat(t.trimNow()).isEqualTo(490);
        assertThat(t.size()).isEqualTo(10);
    }

    @Test
    void softTrim_thatCanRemoveNothing_readsNoEntry(RedisServer server) throws Exception {
        RedisStreamTopic<String> t = track(builder().maxLength(10).build());
        ConsumerGroup<String> behind = track(t.group("behind"));
        t.publishAll(messages(2_000));
        ConsumerGroup<String> g = track(t.group("g", io.queuekit.Position.beginning()));
        assertThat(takeAndAck(g, 5)).hasSize(5);
        List<String> seen = new CopyOnWriteArrayList<>();
        Jedis monitor = track(new Jedis(server.host(), server.port()));
        Thread watching = new Thread(() -> {
            try {
                monitor.monitor(new JedisMonitor() {
                    @Override
                    public void onCommand(String command) {
                        seen.add(command);
                    }
                });
            } catch (RuntimeException closed) {
                // the test closed the connection
            }
        });
        watching.setDaemon(true);
        watching.start();
        await().atMost(5, SECONDS).until(() -> {
            client.echo("watching");
            return seen.stream().anyMatch(c -> c.contains("watching"));
        });

        assertThat(t.trimNow()).as("behind has read nothing").isZero();
        client.echo("trimmed");
        await().atMost(5, SECONDS).until(() -> seen.stream().anyMatch(c -> c.contains("trimmed")));

        assertThat(seen)
                .filteredOn(c -> c.contains("\"XRANGE\""))
                .as("every read stops at the groups' floor, not at the stream's end")
                .isNotEmpty()
                .noneMatch(c -> c.contains("\"+\""));
        assertThat(behind.info().lag()).isEqualTo(2_000);
    }

    @Test
    void softTrim_underAGroupStartedAtATime_removesWhatCameBefore() throws Exception {
        RedisStreamTopic<String> t = track(builder().maxLength(1).build());
        t.publish("before");
        long before = System.currentTimeMillis();
        await().atMost(5, SECONDS).until(() -> System.currentTimeMillis() > before + 1);
        ConsumerGroup<String> g =
                track(t.group("g", io.queuekit.Position.at(java.time.Instant.ofEpochMilli(before + 1))));
        await().atMost(5, SECONDS).until(() -> System.currentTimeMillis() > before + 2);
        t.publishAll(messages(3));

        assertThat(t.trimNow()).as("the group needs none before its time").isEqualTo(1);

        assertThat(t.size()).isEqualTo(3);
        assertThat(takeAndAck(g, 3)).containsExactlyElementsOf(messages(3));
    }

    @Test
    void hardMaxLength_removesUnackedMessages_andCountsThemMissedForEachGroupBehind() throws Exception {
        RedisStreamTopic<String> t = track(builder().hardMaxLength(3).build());
        ConsumerGroup<String> ahead = track(t.group("ahead"));
        ConsumerGroup<String> behind = track(t.group("behind"));
        t.publishAll(messages(3));
        assertThat(takeAndAck(ahead, 3)).containsExactlyElementsOf(messages(3));
        Delivery<String> m0 = behind.poll(5, SECONDS); // in flight when the cap removes it

        t.publish("m3");
        t.publish("m4");

        assertThat(t.size()).isEqualTo(3);
        assertThat(t.groups())
                .extracting(GroupInfo::name, GroupInfo::missed)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("ahead", 0L),
                        org.assertj.core.groups.Tuple.tuple("behind", 2L));
        assertThat(m0.ack()).as("its hand-out still settles").isTrue();
        assertThat(takeAndAck(behind, 3)).containsExactly("m2", "m3", "m4");
        assertThat(takeAndAck(ahead, 2)).containsExactly("m3", "m4");
        assertThat(behind.info().missed()).isEqualTo(2);
    }

    @Test
    void aGroupDestroyedByHand_andCreatedAgain_inheritsNeitherItsMissedCountNorItsLag() throws Exception {
        RedisStreamTopic<String> t = track(builder().hardMaxLength(2).build());
        track(t.group("g"));
        t.publishAll(messages(5)); // the cap removes m0 to m2, unread
        assertThat(t.groups())
                .singleElement()
                .satisfies(i -> assertThat(i.missed()).isEqualTo(3));
        client.xgroupDestroy("queuekit:{" + t.name() + "}:stream", "g"); // an operator, by hand

        ConsumerGroup<String> again = track(t.group("g"));

        GroupInfo info = again.info();
        assertThat(info.missed()).as("the destroyed group's count").isZero();
        assertThat(info.lag()).as("created at the end").isZero();
        t.publish("m5");
        assertThat(takeAndAck(again, 1)).containsExactly("m5");
    }

    @Test
    void afterTheHardCapRemovedWhatAGroupHadNotRead_itsLagCountsWhatIsLeft() throws Exception {
        RedisStreamTopic<String> t = track(builder().hardMaxLength(4).build());
        ConsumerGroup<String> g = track(t.group("g"));
        t.publishAll(messages(3));
        assertThat(takeAndAck(g, 1)).containsExactly("m0");
        t.publishAll(messages(10).subList(3, 10)); // the cap removes m1 to m5, unread

        assertThat(t.size()).isEqualTo(4);
        assertThat(g.info().missed()).isEqualTo(5);
        assertThat(g.info().lag()).as("m6 to m9 are left to read").isEqualTo(4);
        assertThat(takeAndAck(g, 4)).containsExactly("m6", "m7", "m8", "m9");
        assertThat(g.info().lag()).as("read up to the end").isZero();
        t.publish("m10");
        assertThat(g.info().lag()).isEqualTo(1);
    }

    @Test
    void aRetryOfAMessageTheHardCapRemoved_isDropped_andNotHandedOut() throws Exception {
        RedisStreamTopic<String> t = track(builder().hardMaxLength(1).build());
        ConsumerGroup<String> g = track(t.group("g"));
        t.publish("m0");
        assertThat(g.poll(5, SECONDS).retry(Duration.ZERO)).isTrue();

        t.publish("m1"); // removes m0

        assertThat(takeAndAck(g, 1)).containsExactly("m1");
        assertThat(g.poll()).isNull();
        assertThat(g.info()).isEqualTo(new GroupInfo("g", 0, 0, 0, 1, false));
    }

    // ---- groups

    @Test
    void deleteGroup_closesThisObjectsObjectsOfIt_andAnotherObjectsFailClearly() throws Exception {
        RedisStreamTopic<String> t1 = track(builder().build());
        RedisStreamTopic<String> t2 =
                track(RedisStreamTopic.builder(client, t1.name(), Codec.utf8()).build());
        ConsumerGroup<String> mine = track(t1.group("g"));
        ConsumerGroup<String> theirs = track(t2.group("g"));

        assertThat(t1.deleteGroup("g")).isTrue();

        assertThatThrownBy(mine::poll).isInstanceOf(QueueClosedException.class);
        assertThatThrownBy(theirs::poll)
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("no consumer group g");
        assertThatThrownBy(theirs::info).isInstanceOf(QueueException.class).hasMessageContaining("deleted");
        assertThatThrownBy(() -> theirs.replayFrom(io.queuekit.Position.beginning()))
                .isInstanceOf(QueueException.class)
                .hasMessageContaining("deleted");
    }

    @Test
    void deleteGroup_ofManyPending_thatStopsMidway_leavesAGroupThatRefusesClaims_andASecondDeleteFinishesIt()
            throws Exception {
        RedisStreamTopic<String> t = track(builder().build());
        ConsumerGroup<String> doomed = track(t.group("doomed"));
        ConsumerGroup<String> kept = track(t.group("kept"));
        t.publishAll(messages(2_500));
        int held = 0;
        while (held < 2_500) {
            held += doomed.pollBatch(1000, 5, SECONDS).size();
        }

        // one step, as a deletion that died after it leaves the group
        assertThat(t.admin("doomed").delete.get(0).step("doomed", 1000))
                .isEqualTo(new GroupAdmin.Delete.Step(true, false));

        assertThat(t.groups()).extracting(GroupInfo::name).containsExactly("doomed", "kept");
        assertThat(client.xpending("queuekit:{" + t.name() + "}:stream", "doomed")
                        .getTotal())
                .as("1,000 of its pending entries went in the step")
                .isEqualTo(1_500);
        t.publish("after");
        assertThatThrownBy(() -> doomed.poll(1, SECONDS))
                .isInstanceOf(QueueException.class)
                .hasMessageContaining("is being deleted")
                .hasMessageContaining("delete it again to finish");
        assertThat(client.xpending("queuekit:{" + t.name() + "}:stream", "doomed")
                        .getTotal())
                .as("claims refused: nothing handed out")
                .isEqualTo(1_500);
        assertThatThrownBy(() -> t.group("doomed"))
                .isInstanceOf(QueueException.class)
                .hasMessageContaining("consumer group doomed of")
                .hasMessageContaining("is being deleted: wait for that deleteGroup, or call deleteGroup again");
        assertThat(takeAndAck(kept, 2_501)).hasSize(2_501);

        assertThat(t.deleteGroup("doomed")).isTrue();

        assertThat(t.groups()).extracting(GroupInfo::name).containsExactly("kept");
        assertThat(client.keys("queuekit:{" + t.name() + "}:g:doomed:*")).isEmpty();
        assertThat(client.hkeys("queuekit:{" + t.name() + "}:counts")).noneMatch(f -> f.endsWith(":doomed"));
        assertThat(t.deleteGroup("doomed")).isFalse();
    }

    @Test
    void aReplayWhileAMessageIsInFlight_keepsItsHolder_soItsAckStillSettles() throws Exception {
        RedisStreamTopic<String> t1 = track(builder().build());
        RedisStreamTopic<String> t2 =
                track(RedisStreamTopic.builder(client, t1.name(), Codec.utf8()).build());
        ConsumerGroup<String> mine = track(t1.group("g"));
        ConsumerGroup<String> theirs = track(t2.group("g"));
        t1.publish("m");
        assertThat(mine.poll(5, SECONDS).retry(Duration.ZERO)).isTrue();
        Delivery<String> held = mine.poll(5, SECONDS);
        assertThat(held.attempt()).isEqualTo(2);

        mine.replayFrom(io.queuekit.Position.beginning());
        assertThat(theirs.poll(200, MILLISECONDS))
                .as("m is in flight: read again, not handed out")
                .isNull();

        assertThat(held.ack()).as("its holder still holds it").isTrue();
        assertThat(theirs.poll(200, MILLISECONDS)).isNull();
        assertThat(mine.info().pending()).isZero();
    }

    @Test
    void aReplayWhileAMessageWaitsOrIsInFlight_doesNotRestartItsAttempts() throws Exception {
        RedisStreamTopic<String> t1 = track(builder().build());
        RedisStreamTopic<String> t2 =
                track(RedisStreamTopic.builder(client, t1.name(), Codec.utf8()).build());
        ConsumerGroup<String> mine = track(t1.group("g"));
        ConsumerGroup<String> theirs = track(t2.group("g"));
        t1.publish("a");
        assertThat(mine.poll(5, SECONDS).retry(Duration.ZERO)).isTrue();
        Delivery<String> a = mine.poll(5, SECONDS);
        assertThat(a.attempt()).isEqualTo(2);
        assertThat(a.retry(Duration.ofSeconds(2))).isTrue(); // waits after attempt 2
        t1.publish("b");
        assertThat(mine.poll(5, SECONDS).retry(Duration.ZERO)).isTrue();
        Delivery<String> b = mine.poll(5, SECONDS);
        assertThat(b.payload()).isEqualTo("b");
        assertThat(b.attempt()).isEqualTo(2);

        mine.replayFrom(io.queuekit.Position.beginning());
        assertThat(theirs.poll(200, MILLISECONDS))
                .as("both are read again, not handed out")
                .isNull();

        assertThat(b.retry(Duration.ZERO)).as("b's holder still holds it").isTrue();
        Delivery<String> next = theirs.poll(5, SECONDS);
        assertThat(next.payload()).isEqualTo("b");
        assertThat(next.attempt()).as("b's attempts go on").isEqualTo(3);
        assertThat(next.ack()).isTrue();
        next = theirs.poll(5, SECONDS);
        assertThat(next.payload()).isEqualTo("a");
        assertThat(next.attempt()).as("a's attempts go on").isEqualTo(3);
        assertThat(next.ack()).isTrue();
    }

    @Test
    void subscribingWhileTheTopicCloses_leavesNoGroupBehind() throws Exception {
        String name = "stream-test-" + UUID.randomUUID();
        String stream = "queuekit:{" + name + "}:stream";
        client.xadd(stream, redis.clients.jedis.StreamEntryID.NEW_ENTRY, java.util.Map.of("b", "x"));
        for (int i = 0; i < 300; i++) {
            RedisStreamTopic<String> t =
                    RedisStreamTopic.builder(client, name, Codec.utf8()).build();
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            long spin = i * 2_000L;
            Thread subscriber = new Thread(() -> {
                try {
                    go.await();
                    t.subscribe(m -> {});
                } catch (QueueClosedException | InterruptedException closed) {
                    // closed first
                }
            });
            subscriber.start();
            go.countDown();
            long until = System.nanoTime() + spin;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            t.close();
            subscriber.join(10_000);
            assertThat(client.xinfoGroups(stream)).as("round %d", i).isEmpty();
        }
    }

    @Test
    void closingAGroupObject_removesItsConsumer_unlessItHoldsEntries() throws Exception {
        RedisStreamTopic<String> t = track(builder().build());
        String stream = "queuekit:{" + t.name() + "}:stream";
        ConsumerGroup<String> idle = t.group("idle");
        ConsumerGroup<String> holding = t.group("holding");
        t.publish("m");
        assertThat(idle.poll(5, SECONDS).ack()).isTrue();
        assertThat(holding.poll(5, SECONDS)).isNotNull();

        idle.close();
        holding.close();

        assertThat(client.xinfoConsumers2(stream, "idle")).isEmpty();
        assertThat(client.xinfoConsumers2(stream, "holding"))
                .as("its unacked entry keeps the consumer's name")
                .hasSize(1);
    }

    @Test
    void aPollThatTimesOut_waitsOnTheServer_andReturnsNothing() throws Exception {
        RedisStreamTopic<String> t =
                track(builder().blockTimeout(Duration.ofMillis(100)).build());
        ConsumerGroup<String> g = track(t.group("g"));
        long start = System.nanoTime();

        assertThat(g.poll(300, MILLISECONDS)).isNull();

        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(MILLISECONDS.toNanos(300));
    }
}
