package io.queuekit.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

/**
 * The queue of the {@code @QueueSchedule} methods is named after the application, so that two
 * applications on one Redis keep their schedules apart (each removes, at start, the schedules on
 * its queue that none of its methods declares).
 */
class ScheduleQueueNameTest {

    @Test
    void namedAfterTheApplication_unlessSetOrUnnamed() {
        assertThat(QueueRegistrar.bind(new MockEnvironment()).getScheduleQueue())
                .isEqualTo("queuekit-schedules");
        assertThat(QueueRegistrar.bind(new MockEnvironment().withProperty("spring.application.name", "billing"))
                        .getScheduleQueue())
                .isEqualTo("billing-schedules");
        assertThat(QueueRegistrar.bind(new MockEnvironment()
                                .withProperty("spring.application.name", "billing")
                                .withProperty("queuekit.schedule-queue", "ticks"))
                        .getScheduleQueue())
                .isEqualTo("ticks");
        assertThat(QueueRegistrar.scheduleQueueOf("order service/eu")).isEqualTo("order-service-eu-schedules");
    }
}
