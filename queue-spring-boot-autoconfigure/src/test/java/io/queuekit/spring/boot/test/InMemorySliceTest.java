package io.queuekit.spring.boot.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.queuekit.DelayQueue;
import io.queuekit.MessageQueue;
import io.queuekit.inmemory.InMemoryDelayQueue;
import io.queuekit.inmemory.InMemoryMessageQueue;
import io.queuekit.inmemory.ManualClock;
import io.queuekit.spring.boot.QueueListener;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Import;
import redis.clients.jedis.UnifiedJedis;

/**
 * An application's own test with {@link AutoConfigureInMemoryQueues}: the queues its properties
 * declare are in memory, time is advanced by hand, and no Redis is needed (none runs for this class:
 * the properties point at a port nothing listens on).
 */
@SpringBootTest(
        properties = {
            "spring.data.redis.port=1",
            "queuekit.queues.orders.type=list",
            "queuekit.queues.reminders.type=delay",
            "queuekit.queues.reminders.max-attempts=2"
        })
@AutoConfigureInMemoryQueues
@Timeout(30)
class InMemorySliceTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Reminders.class)
    static class App {}

    static class Reminders {
        final List<String> sent = new CopyOnWriteArrayList<>();

        @QueueListener(queue = "reminders")
        void remind(String who) {
            sent.add(who);
        }
    }

    @Autowired
    MessageQueue<String> orders;

    @Autowired
    DelayQueue<String> reminders;

    @Autowired
    ManualClock clock;

    @Autowired
    Reminders listener;

    @Autowired
    ApplicationContext context;

    @Test
    void theQueuesAreInMemory_andNoRedisClientIsMade() {
        assertThat(orders).isInstanceOf(InMemoryMessageQueue.class);
        assertThat(reminders).isInstanceOf(InMemoryDelayQueue.class);
        assertThat(context.getBeansOfType(UnifiedJedis.class)).isEmpty();
    }

    @Test
    void aDelayedMessage_comesWhenTheTestAdvancesTheClock() {
        reminders.schedule("alice", Duration.ofHours(24));
        clock.advance(Duration.ofHours(23));
        assertThat(reminders.stats().delayed()).isEqualTo(1);
        assertThat(listener.sent).isEmpty();

        clock.advance(Duration.ofHours(1));
        await().atMost(Duration.ofSeconds(10)).until(() -> listener.sent.equals(List.of("alice")));
    }
}
