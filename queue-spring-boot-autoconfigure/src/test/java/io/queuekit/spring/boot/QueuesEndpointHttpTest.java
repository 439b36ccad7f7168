package io.queuekit.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.queuekit.ConsumerGroup;
import io.queuekit.Delivery;
import io.queuekit.GroupInfo;
import io.queuekit.Headers;
import io.queuekit.MessageId;
import io.queuekit.MessageQueue;
import io.queuekit.QueueStats;
import io.queuekit.Topic;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.json.JsonMapper;

/** The {@code queues} endpoint over HTTP in a running web application, with every auto-configuration. */
@RedisServerTest
@Timeout(90)
class QueuesEndpointHttpTest {
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final RedisServer server;

    QueuesEndpointHttpTest(RedisServer server) {
        this.server = server;
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class WebApp {}

    private ConfigurableApplicationContext start(String... more) {
        String prefix = Contexts.unique("endpoint");
        String[] properties = {
            "server.port=0",
            "spring.data.redis.host=" + server.host(),
            "spring.data.redis.port=" + server.port(),
            "management.endpoints.web.exposure.include=health,queues",
            "management.endpoint.health.show-details=always",
            "queuekit.queues.orders.payload-type=" + Order.class.getName(),
            "queuekit.queues.orders.key-prefix=" + prefix,
            "queuekit.queues.prices.type=broadcast",
            "queuekit.queues.prices.key-prefix=" + prefix
        };
        return new SpringApplicationBuilder(WebApp.class)
                .properties(properties)
                .properties(more)
                .run();
    }

    private static HttpResponse<String> get(ConfigurableApplicationContext app, String path) throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(uri(app, path))
                        .timeout(Duration.ofSeconds(10))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(ConfigurableApplicationContext app, String path, String json)
            throws Exception {
        return HTTP.send(
                HttpRequest.newBuilder(uri(app, path))
                        .timeout(Duration.ofSeconds(10))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(ConfigurableApplicationContext app, String path) {
        int port = ((WebServerApplicationContext) app).getWebServer().getPort();
        return URI.create("http://localhost:" + port + path);
    }

    @SuppressWarnings("unchecked")
    private static MessageQueue<Order> orders(ConfigurableApplicationContext app) {
        return app.getBean("orders", MessageQueue.class);
    }

    private static Order order(String id) {
        return new Order(id, 990, Instant.parse("2026-12-01T10:00:00Z"));
    }

    private static MessageId deadLetter(MessageQueue<Order> orders, Order order) throws InterruptedException {
        return deadLetter(orders, order, Headers.empty());
    }

    private static MessageId deadLetter(MessageQueue<Order> orders, Order order, Headers headers)
            throws InterruptedException {
        orders.send(order, headers);
        Delivery<Order> d = orders.poll(5, TimeUnit.SECONDS);
        assertThat(d.deadLetter("card declined")).isTrue();
        return d.id();
    }

    @Test
    void reads_showStatsPeekAndDeadLetters() throws Exception {
        try (ConfigurableApplicationContext app = start()) {
            MessageQueue<Order> orders = orders(app);
            deadLetter(orders, order("o-dead"));
            orders.send(order("o-waiting"));

            HttpResponse<String> all = get(app, "/actuator/queues");
            assertThat(all.statusCode()).isEqualTo(200);
            assertThat(all.body())
                    .contains(
                            "\"orders\"",
                            "\"type\":\"list\"",
                            "\"transport\":\"redis-list\"",
                            "\"ready\":1",
                            "\"dead\":1",
                            "\"prices\"",
                            "\"type\":\"broadcast\"");

            assertThat(get(app, "/actuator/queues/orders").body()).contains("\"ready\":1");
            assertThat(get(app, "/actuator/queues/orders/peek?limit=5").body())
                    .contains("\"id\":\"o-waiting\"", "\"headers\":{");
            assertThat(get(app, "/actuator/queues/orders/dead-letters").body())
                    .contains("\"id\":\"o-dead\"", "\"reason\":\"card declined\"", "\"headers\":{");
            assertThat(get(app, "/actuator/queues/nosuch").statusCode()).isEqualTo(404);
            HttpResponse<String> badLimit = get(app, "/actuator/queues/orders/peek?limit=0");
            assertThat(badLimit.statusCode()).isEqualTo(400);
            assertThat(badLimit.body()).contains("limit must be a number from 1 to 1000: 0");
            HttpResponse<String> badPart = get(app, "/actuator/queues/orders/pek");
            assertThat(badPart.statusCode()).isEqualTo(400);
            assertThat(badPart.body()).contains("no part 'pek': use peek or dead-letters");

            HttpResponse<String> health = get(app, "/actuator/health");
            assertThat(health.body()).contains("\"queuekit\"", "\"redis\":\"PONG\"");
        }
    }

    @SuppressWarnings("unchecked")
    private static Topic<Order> events(ConfigurableApplicationContext app) {
        return app.getBean("events", Topic.class);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aStream_showsItsGroups_eachGroupsDeadLetters_andWritesToOneGroupAlone() throws Exception {
        try (ConfigurableApplicationContext app = start(
                "queuekit.queues.events.key-prefix=" + Contexts.unique("endpoint"),
                "queuekit.queues.events.type=stream",
                "queuekit.queues.events.payload-type=" + Order.class.getName(),
                "management.endpoint.queues.access=unrestricted")) {
            Topic<Order> events = events(app);
            ConsumerGroup<Order> billing = events.group("billing");
            events.group("audit");
            events.publish(order("e-1"));
            Delivery<Order> d = billing.poll(5, TimeUnit.SECONDS);
            assertThat(d.deadLetter("no ledger")).isTrue();

            HttpResponse<String> all = get(app, "/actuator/queues");
            assertThat(all.statusCode()).isEqualTo(200);
            Map<?, ?> stream = (Map<?, ?>) JsonMapper.builder()
                    .build()
                    .readValue(all.body(), Map.class)
                    .get("events");
            assertThat(stream.get("type")).isEqualTo("stream");
            assertThat(stream.get("size")).isEqualTo(1);
            assertThat(stream.get("stats")).isNull();
            assertThat((List<Object>) stream.get("groups"))
                    .containsExactly(
                            Map.of(
                                    "name",
                                    "audit",
                                    "lag",
                                    1,
                                    "pending",
                                    0,
                                    "dead",
                                    0,
                                    "missed",
                                    0,
                                    "subscription",
                                    false),
                            Map.of(
                                    "name",
                                    "billing",
                                    "lag",
                                    0,
                                    "pending",
                                    0,
                                    "dead",
                                    1,
                                    "missed",
                                    0,
                                    "subscription",
                                    false));
            assertThat(get(app, "/actuator/queues/events").body()).contains("\"name\":\"billing\"", "\"dead\":1");
            HttpResponse<String> health = get(app, "/actuator/health");
            assertThat(health.body()).contains("\"events\":{\"groups\":{", "\"audit\":{", "\"lag\":1", "\"dead\":1");

            HttpResponse<String> dead = get(app, "/actuator/queues/events/billing/dead-letters");
            assertThat(dead.statusCode()).isEqualTo(200);
            assertThat(dead.body()).contains("\"id\":\"" + d.id().value() + "\"", "\"reason\":\"no ledger\"");
            assertThat(get(app, "/actuator/queues/events/audit/dead-letters").body())
                    .isEqualTo("[]");
            assertThat(get(app, "/actuator/queues/events/nosuch/dead-letters").statusCode())
                    .isEqualTo(404);
            assertThat(events.groups()).extracting(GroupInfo::name).containsExactly("audit", "billing");
            HttpResponse<String> ofTheStream = get(app, "/actuator/queues/events/dead-letters");
            assertThat(ofTheStream.statusCode()).isEqualTo(400);
            assertThat(ofTheStream.body())
                    .contains("events is a stream", "/actuator/queues/events/{group}/dead-letters");
            HttpResponse<String> peek = get(app, "/actuator/queues/events/billing/peek");
            assertThat(peek.statusCode()).isEqualTo(400);

            HttpResponse<String> requeue = post(app, "/actuator/queues/events/billing/requeue", "{\"all\":true}");
            assertThat(requeue.statusCode()).isEqualTo(200);
            assertThat(requeue.body()).contains("\"queue\":\"events\"", "\"group\":\"billing\"", "\"changed\":1");
            Delivery<Order> again = billing.poll(5, TimeUnit.SECONDS);
            assertThat(again.payload()).isEqualTo(order("e-1"));
            assertThat(again.ack()).isTrue();
            HttpResponse<String> pause = post(app, "/actuator/queues/events/audit/pause", "{}");
            assertThat(pause.body()).contains("\"group\":\"audit\"", "\"paused\":true");
            assertThat(events.group("audit").isPaused()).isTrue();
            assertThat(billing.isPaused()).isFalse();
            assertThat(post(app, "/actuator/queues/events/nosuch/pause", "{}").statusCode())
                    .isEqualTo(404);
        }
    }

    @Test
    void peekAndDeadLetters_showTheHeaders_byName_inTheirOrder() throws Exception {
        try (ConfigurableApplicationContext app = start()) {
            Headers headers = Headers.of("tenant", "acme")
                    .with("note", "caf\u00e9 \"quoted\"")
                    .with("empty", "");
            MessageQueue<Order> orders = orders(app);
            deadLetter(orders, order("o-dead"), headers);
            orders.send(order("o-waiting"), headers);

            for (String part : List.of("peek", "dead-letters")) {
                HttpResponse<String> read = get(app, "/actuator/queues/orders/" + part);
                assertThat(read.statusCode()).isEqualTo(200);
                List<?> views = JsonMapper.builder().build().readValue(read.body(), List.class);
                Map<Object, Object> shown = new LinkedHashMap<>((Map<?, ?>) ((Map<?, ?>) views.get(0)).get("headers"));
                // those given, in their order; a tracing bridge on the classpath would add its own after them
                assertThat(shown)
                        .as(part)
                        .contains(entry("tenant", "acme"), entry("note", "caf\u00e9 \"quoted\""), entry("empty", ""));
                assertThat(List.copyOf(shown.keySet())).as(part).containsSubsequence("tenant", "note", "empty");
            }
        }
    }

    @Test
    void writes_areOff_unlessAccessIsUnrestricted() throws Exception {
        try (ConfigurableApplicationContext app = start()) {
            MessageQueue<Order> orders = orders(app);
            deadLetter(orders, order("o-1"));

            HttpResponse<String> refused = post(app, "/actuator/queues/orders/requeue", "{\"all\":true}");
            assertThat(refused.statusCode()).isBetween(400, 499);
            assertThat(orders.stats()).isEqualTo(new QueueStats(0, 0, 0, 1));
            HttpResponse<String> pause = post(app, "/actuator/queues/orders/pause", "{}");
            assertThat(pause.statusCode()).isBetween(400, 499);
            assertThat(orders.isPaused()).isFalse();
        }
    }

    @Test
    void writes_requeueAndPurgeDeadLetters_oneOrAll_whenAllowed() throws Exception {
        try (ConfigurableApplicationContext app = start("management.endpoint.queues.access=unrestricted")) {
            MessageQueue<Order> orders = orders(app);
            MessageId first = deadLetter(orders, order("o-1"));
            deadLetter(orders, order("o-2"));
            deadLetter(orders, order("o-3"));

            HttpResponse<String> neither = post(app, "/actuator/queues/orders/purge", "{}");
            assertThat(neither.statusCode()).isEqualTo(400);
            assertThat(neither.body()).contains("purge needs either \\\"id\\\" (one dead letter)");
            HttpResponse<String> notABoolean = post(app, "/actuator/queues/orders/purge", "{\"all\":\"maybe\"}");
            assertThat(notABoolean.statusCode()).isEqualTo(400);
            assertThat(notABoolean.body()).contains("all must be true or false: maybe");
            assertThat(orders.stats().dead()).isEqualTo(3);

            HttpResponse<String> one =
                    post(app, "/actuator/queues/orders/requeue", "{\"id\":\"" + first.value() + "\"}");
            assertThat(one.statusCode()).isEqualTo(200);
            assertThat(one.body()).contains("\"changed\":1");
            assertThat(orders.stats()).isEqualTo(new QueueStats(1, 0, 0, 2));

            HttpResponse<String> all = post(app, "/actuator/queues/orders/purge", "{\"all\":true}");
            assertThat(all.body()).contains("\"changed\":2");
            assertThat(orders.stats()).isEqualTo(new QueueStats(1, 0, 0, 0));
        }
    }

    @Test
    void writes_pauseAndResumeTheQueue_whenAllowed_andStatsShowIt() throws Exception {
        try (ConfigurableApplicationContext app = start("management.endpoint.queues.access=unrestricted")) {
            MessageQueue<Order> orders = orders(app);

            HttpResponse<String> pause = post(app, "/actuator/queues/orders/pause", "{}");
            assertThat(pause.statusCode()).isEqualTo(200);
            assertThat(pause.body()).contains("\"paused\":true");
            assertThat(orders.isPaused()).isTrue();
            orders.send(order("o-1"));
            assertThat(orders.poll()).as("a poll of the paused queue").isNull();
            assertThat(get(app, "/actuator/queues/orders").body()).contains("\"paused\":true");
            HttpResponse<String> withAnId = post(app, "/actuator/queues/orders/resume", "{\"id\":\"x\"}");
            assertThat(withAnId.statusCode()).isEqualTo(400);
            assertThat(withAnId.body()).contains("resume takes neither");
            assertThat(orders.isPaused()).isTrue();

            HttpResponse<String> resume = post(app, "/actuator/queues/orders/resume", "{}");
            assertThat(resume.statusCode()).isEqualTo(200);
            assertThat(resume.body()).contains("\"paused\":false");
            Delivery<Order> d = orders.poll(5, TimeUnit.SECONDS);
            assertThat(d).isNotNull();
            assertThat(d.ack()).isTrue();
        }
    }
}
