package io.queuekit.cli;

import static io.queuekit.cli.Cli.cli;
import static io.queuekit.cli.Cli.redisUri;
import static io.queuekit.cli.Cli.snapshot;
import static io.queuekit.cli.Cli.unique;
import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.Codec;
import io.queuekit.Delivery;
import io.queuekit.MessageId;
import io.queuekit.redis.internal.RedisKeys;
import io.queuekit.redis.zset.RedisDelayQueue;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;

@DisplayName(
        "Commands that act on every dead letter ask first, or need --yes, and --dry-run only says what they would do")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@RedisServerTest
class ConfirmationTest {
    private static RedisClient client;
    private final String name = unique();
    private RedisDelayQueue<String> queue;
    private final List<MessageId> dead = new ArrayList<>();

    @BeforeAll
    static void connect(RedisClient redis) {
        client = redis;
    }

    @BeforeEach
    void twoDeadLetters_andOneWaiting() throws InterruptedException {
        queue = RedisDelayQueue.builder(client, name, Codec.utf8()).build();
        queue.sendAll(List.of("a", "b"));
        for (int i = 0; i < 2; i++) {
            Delivery<String> d = queue.poll(5, TimeUnit.SECONDS);
            d.deadLetter("bad " + i);
            dead.add(d.id());
        }
        queue.schedule("later", Duration.ofHours(1));
    }

    @AfterEach
    void close() {
        queue.close();
    }

    private Map<String, String> keys() {
        return snapshot(client, RedisKeys.of(RedisKeys.DEFAULT_PREFIX, name).base());
    }

    private String[] dead(String... words) {
        List<String> args = new ArrayList<>(List.of("dead"));
        args.addAll(List.of(words));
        args.addAll(List.of("--redis", redisUri(), "--queue", name));
        return args.toArray(String[]::new);
    }

    @Test
    void purge_withoutYes_andNoTerminal_exits2_andPurgesNothing() {
        Map<String, String> before = keys();
        Cli.Result r = cli().run(dead("purge"));
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--yes").contains("--dry-run").contains("2 dead letters");
        assertThat(keys()).isEqualTo(before);
    }

    @Test
    void requeueAll_withoutYes_andNoTerminal_exits2_andRequeuesNothing() {
        Map<String, String> before = keys();
        Cli.Result r = cli().run(dead("requeue"));
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--yes");
        assertThat(keys()).isEqualTo(before);
    }

    @Test
    void purge_onATerminal_asks_andAnythingButYes_changesNothing() {
        Map<String, String> before = keys();
        Cli.ScriptedTerminal person = new Cli.ScriptedTerminal("n");
        Cli.Result r = cli().terminal(person).run(dead("purge"));
        assertThat(person.prompts)
                .singleElement()
                .asString()
                .contains("purge")
                .contains("2 dead letters")
                .contains(name);
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("nothing was changed");
        assertThat(keys()).isEqualTo(before);
    }

    @Test
    void purge_onATerminal_asks_andYesPurges() {
        Cli.ScriptedTerminal person = new Cli.ScriptedTerminal("yes");
        Cli.Result r = cli().terminal(person).run(dead("purge"));
        assertThat(person.prompts).hasSize(1);
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("purged 2");
        assertThat(queue.stats().dead()).isZero();
        assertThat(queue.stats().delayed()).isEqualTo(1);
    }

    @Test
    void purge_withYes_purgesWithoutAsking() {
        Cli.ScriptedTerminal person = new Cli.ScriptedTerminal();
        Cli.Result r = cli().terminal(person).run(dead("purge", "--yes"));
        assertThat(person.prompts).isEmpty();
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("purged 2");
        assertThat(queue.stats().dead()).isZero();
    }

    @Test
    void requeueAll_withYes_requeuesEveryDeadLetter() {
        Cli.Result r = cli().run(dead("requeue", "--yes"));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("requeued 2");
        assertThat(queue.stats().dead()).isZero();
        assertThat(queue.stats().ready()).isEqualTo(2);
    }

    @Test
    void requeueOfOneId_needsNoConfirmation() {
        Cli.Result r = cli().run(dead("requeue", "--id", dead.get(1).value()));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("requeued 1");
        assertThat(queue.deadLetters().list(10)).extracting(d -> d.id()).containsExactly(dead.get(0));
    }

    @Test
    void purgeOfOneId_needsNoConfirmation() {
        Cli.Result r = cli().run(dead("purge", "--id", dead.get(1).value()));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("purged 1");
        assertThat(queue.deadLetters().list(10)).extracting(d -> d.id()).containsExactly(dead.get(0));
    }

    @Test
    void dryRun_saysWhatWouldBeDone_andChangesNothing() {
        Map<String, String> before = keys();
        Cli.Result purge = cli().run(dead("purge", "--dry-run"));
        Cli.Result requeueAll = cli().run(dead("requeue", "--dry-run"));
        Cli.Result requeueOne =
                cli().run(dead("requeue", "--dry-run", "--id", dead.get(0).value()));
        Cli.Result requeueNone = cli().run(dead("requeue", "--dry-run", "--id", "no-such-id"));
        Cli.Result purgeOne =
                cli().run(dead("purge", "--dry-run", "--id", dead.get(1).value()));
        Cli.Result purgeNone = cli().run(dead("purge", "--dry-run", "--id", "no-such-id"));

        assertThat(purge.exit()).as(purge.err()).isZero();
        assertThat(purge.out()).contains("would purge 2 dead letters").contains("nothing was changed");
        assertThat(requeueAll.exit()).as(requeueAll.err()).isZero();
        assertThat(requeueAll.out()).contains("would requeue 2 dead letters");
        assertThat(requeueOne.exit()).as(requeueOne.err()).isZero();
        assertThat(requeueOne.out())
                .contains("would requeue dead letter " + dead.get(0).value());
        assertThat(requeueNone.exit()).isEqualTo(1);
        assertThat(requeueNone.err()).contains("no dead letter with id no-such-id");
        assertThat(purgeOne.exit()).as(purgeOne.err()).isZero();
        assertThat(purgeOne.out())
                .contains("would purge dead letter " + dead.get(1).value());
        assertThat(purgeNone.exit()).isEqualTo(1);
        assertThat(purgeNone.err()).contains("no dead letter with id no-such-id");
        assertThat(keys()).isEqualTo(before);
    }
}
