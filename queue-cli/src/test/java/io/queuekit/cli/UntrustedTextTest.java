package io.queuekit.cli;

import static io.queuekit.cli.Cli.cli;
import static io.queuekit.cli.Cli.redisUri;
import static io.queuekit.cli.Cli.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.queuekit.Codec;
import io.queuekit.Delivery;
import io.queuekit.Headers;
import io.queuekit.MessageId;
import io.queuekit.redis.list.RedisListQueue;
import io.queuekit.redis.zset.RedisDelayQueue;
import io.queuekit.testing.RedisServerTest;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import redis.clients.jedis.RedisClient;

@DisplayName(
        "Text from the queue (ids, reasons, headers, payloads) reaches the terminal escaped, one line per message, and --json is exact")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@RedisServerTest
class UntrustedTextTest {
    /** Clears the screen, sets the window title, rings the bell, then forges a second dead letter. */
    private static final String HOSTILE_REASON =
            "timeout\u001b[2J\u001b]0;pwned\u0007\r\n7  2026-01-01T00:00:00Z  attempts 1  reason: \"forged\"";

    private static final String HOSTILE_PAYLOAD = "pay\u001b[31mload\nsecond line\u202e\u0000end";
    /** A right-to-left override: MessageId allows it, and it reorders what follows on screen. */
    private static final String HOSTILE_ID = "invoice\u202egnp.exe";

    /** Sets the window title and forges a line in a value; one value longer than the screen shows. */
    private static final Headers HOSTILE_HEADERS = Headers.of("note", "ok\u001b]0;pwned\u0007\n\u202eforged")
            .with("empty", "")
            .with("long", "x".repeat(Text.SHOWN + 50));

    private static RedisClient client;
    private static String listQueue;
    private static String delayQueue;

    @BeforeAll
    static void hostileDeadLetters(RedisClient redis) throws InterruptedException {
        client = redis;
        listQueue = unique();
        try (RedisListQueue<String> q =
                RedisListQueue.builder(client, listQueue, Codec.utf8()).build()) {
            q.send(HOSTILE_PAYLOAD, HOSTILE_HEADERS);
            q.poll(5, TimeUnit.SECONDS).deadLetter(HOSTILE_REASON);
            q.send(HOSTILE_PAYLOAD, HOSTILE_HEADERS);
        }
        delayQueue = unique();
        try (RedisDelayQueue<String> q =
                RedisDelayQueue.builder(client, delayQueue, Codec.utf8()).build()) {
            q.schedule(MessageId.of(HOSTILE_ID), HOSTILE_PAYLOAD, HOSTILE_HEADERS, Duration.ZERO);
            Delivery<String> d = q.poll(5, TimeUnit.SECONDS);
            d.deadLetter(HOSTILE_REASON);
            q.schedule(HOSTILE_PAYLOAD, HOSTILE_HEADERS, Duration.ofHours(1));
        }
    }

    /** How the hostile headers read on a person's line, followed by the payload. */
    private static final String SHOWN_HEADERS =
            "headers {note=\"ok\\e]0;pwned\\u0007\\n\\u202eforged\", empty=\"\", long=\"" + "x".repeat(Text.SHOWN)
                    + "\"... (" + (Text.SHOWN + 50) + " characters)}  \"pay";

    /** Nothing a terminal acts on: no control character but the line ends, no bidirectional override. */
    private static void assertInert(String out) {
        assertThat(out.chars().filter(c -> c != '\n' && (Character.isISOControl(c) || c == 0x202e || c == 0x2028)))
                .as(out)
                .isEmpty();
    }

    @Test
    void deadList_printsOneEscapedLinePerDeadLetter() {
        for (String name : new String[] {listQueue, delayQueue}) {
            Cli.Result r = cli().run("dead", "list", "--redis", redisUri(), "--queue", name);
            assertThat(r.exit()).as(r.err()).isZero();
            assertInert(r.out());
            assertThat(r.out().lines()).as(r.out()).hasSize(1);
            assertThat(r.out())
                    .contains("\\e[2J")
                    .contains("\\r\\n7  2026")
                    .contains("\\\"forged\\\"")
                    .contains(SHOWN_HEADERS)
                    .contains("pay\\e[31mload\\nsecond line\\u202e\\0end");
        }
        assertThat(cli().run("dead", "list", "--redis", redisUri(), "--queue", delayQueue)
                        .out())
                .contains("invoice\\u202egnp.exe");
    }

    @Test
    void peek_printsOneEscapedLinePerMessage() {
        for (String name : new String[] {listQueue, delayQueue}) {
            Cli.Result r = cli().run("peek", "--redis", redisUri(), "--queue", name);
            assertThat(r.exit()).as(r.err()).isZero();
            assertInert(r.out());
            assertThat(r.out().lines()).as(r.out()).hasSize(1);
            assertThat(r.out()).contains(SHOWN_HEADERS).contains("pay\\e[31mload\\nsecond line\\u202e\\0end");
        }
    }

    @Test
    void deadList_json_carriesTheExactText_inPlainAscii() throws Exception {
        Cli.Result r = cli().run("dead", "list", "--json", "--redis", redisUri(), "--queue", delayQueue);
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out().chars().filter(c -> c > 126 || c < 32 && c != '\n'))
                .as(r.out())
                .isEmpty();
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertThat(json.get("queue").asText()).isEqualTo(delayQueue);
        assertThat(json.get("type").asText()).isEqualTo("zset");
        JsonNode d = json.get("deadLetters").get(0);
        assertThat(d.get("id").asText()).isEqualTo(HOSTILE_ID);
        assertThat(d.get("reason").asText()).isEqualTo(HOSTILE_REASON);
        assertThat(d.get("payload").asText()).isEqualTo(HOSTILE_PAYLOAD);
        assertThat(d.get("attempts").asInt()).isEqualTo(1);
        assertExactly(d.get("headers"));
        assertThat(d.get("deadAt").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
    }

    @Test
    void peek_json_carriesTheExactText_inPlainAscii() throws Exception {
        for (String name : new String[] {listQueue, delayQueue}) {
            Cli.Result r = cli().run("peek", "--json", "--redis", redisUri(), "--queue", name);
            assertThat(r.exit()).as(r.err()).isZero();
            assertThat(r.out().chars().filter(c -> c > 126 || c < 32 && c != '\n'))
                    .as(r.out())
                    .isEmpty();
            JsonNode m = new ObjectMapper().readTree(r.out()).get("messages").get(0);
            assertThat(m.get("payload").asText()).isEqualTo(HOSTILE_PAYLOAD);
            assertExactly(m.get("headers"));
            assertThat(m.get("sentAt").asText()).endsWith("Z");
            assertThat(m.has(name.equals(delayQueue) ? "dueAt" : "attempt"))
                    .as(m.toString())
                    .isTrue();
        }
    }

    /** The hostile headers as a JSON object: each name to its exact value, in their order. */
    private static void assertExactly(JsonNode headers) {
        assertThat(headers.fieldNames()).toIterable().containsExactly("note", "empty", "long");
        HOSTILE_HEADERS
                .asMap()
                .forEach((name, value) ->
                        assertThat(headers.get(name).asText()).as(name).isEqualTo(value));
    }

    @Test
    void stats_json() throws Exception {
        Cli.Result r = cli().run("stats", "--json", "--redis", redisUri(), "--queue", delayQueue);
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode json = new ObjectMapper().readTree(r.out());
        assertThat(json.get("queue").asText()).isEqualTo(delayQueue);
        assertThat(json.get("prefix").asText()).isEqualTo("queuekit");
        assertThat(json.get("type").asText()).isEqualTo("zset");
        assertThat(json.get("ready").asLong()).isZero();
        assertThat(json.get("inFlight").asLong()).isZero();
        assertThat(json.get("delayed").asLong()).isEqualTo(1);
        assertThat(json.get("dead").asLong()).isEqualTo(1);
    }
}
