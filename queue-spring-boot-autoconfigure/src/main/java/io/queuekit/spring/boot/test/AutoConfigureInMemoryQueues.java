package io.queuekit.spring.boot.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.test.context.TestPropertySource;

/**
 * On a Spring test class: every queue declared under {@code queuekit.queues} is built in memory
 * ({@code InMemoryMessageQueue}, {@code InMemoryDelayQueue}, {@code InMemoryBroadcaster}) instead of
 * on Redis, with the same payload codec, and no Redis client is made. The queues read a
 * {@code ManualClock} bean, which the test injects and advances instead of sleeping:
 *
 * <pre>{@code
 * @SpringBootTest
 * @AutoConfigureInMemoryQueues
 * class ReminderTest {
 *     @Autowired DelayQueue<Reminder> reminders;
 *     @Autowired ManualClock clock;
 *     ...
 *     clock.advance(Duration.ofHours(1));
 * }
 * }</pre>
 *
 * It sets {@code queuekit.transport=in-memory} and {@code queuekit.in-memory.clock=manual} for the
 * test's context; {@code io.queuekit:queue-inmemory} must be on the test classpath (the starter
 * brings it).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@TestPropertySource(properties = {"queuekit.transport=in-memory", "queuekit.in-memory.clock=manual"})
public @interface AutoConfigureInMemoryQueues {}
