package io.queuekit.spring.boot;

import static io.queuekit.spring.boot.ConfigurationErrorsTest.failsWith;
import static org.assertj.core.api.Assertions.assertThat;

import io.queuekit.DelayQueue;
import io.queuekit.testing.RedisServer;
import io.queuekit.testing.RedisServerTest;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Schedules that cannot work fail start-up, naming the property or the method to fix. */
@RedisServerTest
@Timeout(60)
class ScheduleConfigurationErrorsTest {
    private final RedisServer server;

    ScheduleConfigurationErrorsTest(RedisServer server) {
        this.server = server;
    }

    private ApplicationContextRunner withReminders() {
        return Contexts.on(server)
                .withPropertyValues("queuekit.queues.reminders.type=delay", "queuekit.queues.orders.type=list");
    }

    @Test
    void aScheduleOfAnUndeclaredQueue_orOfAListQueue_failsNamingTheProperty() {
        withReminders()
                .withPropertyValues("queuekit.schedules.nightly.queue=remindrs", "queuekit.schedules.nightly.every=1m")
                .run(failsWith("queuekit.schedules.nightly.queue=remindrs names no queue", "reminders"));
        withReminders()
                .withPropertyValues("queuekit.schedules.nightly.queue=orders", "queuekit.schedules.nightly.every=1m")
                .run(failsWith("queuekit.schedules.nightly.queue=orders", "queuekit.queues.orders.type=list"));
        withReminders()
                .withPropertyValues("queuekit.schedules.nightly.every=1m")
                .run(failsWith("queuekit.schedules.nightly.queue is not set"));
    }

    @Test
    void noneOrTwoOfCronEveryAndAt_failNamingThem() {
        withReminders()
                .withPropertyValues("queuekit.schedules.nightly.queue=reminders")
                .run(failsWith("queuekit.schedules.nightly sets none of cron, every and at"));
        withReminders()
                .withPropertyValues(
                        "queuekit.schedules.nightly.queue=reminders",
                        "queuekit.schedules.nightly.cron=0 0 * * * *",
                        "queuekit.schedules.nightly.at=2030-01-01T00:00:00Z")
                .run(failsWith("queuekit.schedules.nightly.cron", "queuekit.schedules.nightly.at", "exactly one"));
        withReminders()
                .withPropertyValues(
                        "queuekit.schedules.nightly.queue=reminders",
                        "queuekit.schedules.nightly.every=1m",
                        "queuekit.schedules.nightly.zone=Europe/Berlin")
                .run(failsWith("queuekit.schedules.nightly.zone is set without queuekit.schedules.nightly.cron"));
    }

    @Test
    void aBadCron_aBadZone_orAShortPeriod_failNamingTheProperty() {
        withReminders()
                .withPropertyValues(
                        "queuekit.schedules.nightly.queue=reminders", "queuekit.schedules.nightly.cron=0 61 * * * *")
                .run(failsWith("queuekit.schedules.nightly.cron=0 61 * * * * is refused"));
        withReminders()
                .withPropertyValues(
                        "queuekit.schedules.nightly.queue=reminders",
                        "queuekit.schedules.nightly.cron=0 30 2 * * *",
                        "queuekit.schedules.nightly.zone=Mars/Olympus")
                .run(failsWith("queuekit.schedules.nightly.zone=Mars/Olympus is not a time zone"));
        withReminders()
                .withPropertyValues(
                        "queuekit.schedules.nightly.queue=reminders", "queuekit.schedules.nightly.every=10ms")
                .run(failsWith("queuekit.schedules.nightly.every=PT0.01S is refused"));
    }

    @Test
    void aMisspelledSetting_failsNamingIt_andTheNameItMeant() {
        withReminders()
                .withPropertyValues("queuekit.schedules.nightly.queue=reminders", "queuekit.schedules.nightly.evry=1m")
                .run(failsWith("did you mean queuekit.schedules.nightly.every?"));
    }

    @Test
    void aPayloadTheQueuesCodecCannotRead_failsNamingThePayloadProperty() {
        Contexts.on(server)
                .withPropertyValues(
                        "queuekit.queues.reminders.type=delay",
                        "queuekit.queues.reminders.payload-type=" + Order.class.getName(),
                        "queuekit.schedules.nightly.queue=reminders",
                        "queuekit.schedules.nightly.every=1m",
                        "queuekit.schedules.nightly.payload=not json")
                .run(failsWith("queuekit.schedules.nightly.payload=not json cannot be read"));
    }

    static class SameName {
        @QueueSchedule(name = "report", every = "1m")
        void first() {}

        @QueueSchedule(name = "report", cron = "0 0 * * * *")
        void second() {}
    }

    static class BadCron {
        @QueueSchedule(cron = "0 0 25 * * *")
        void report() {}
    }

    static class NeitherCronNorEvery {
        @QueueSchedule(name = "report")
        void report() {}
    }

    static class TakesAString {
        @QueueSchedule(every = "1m")
        void report(String what) {}
    }

    static class BadZone {
        @QueueSchedule(cron = "0 0 2 * * *", zone = "Europe/Atlantis")
        void report() {}
    }

    static class ListensToTheScheduleQueue {
        @QueueSchedule(every = "1m")
        void report() {}

        @QueueListener(queue = "queuekit-schedules")
        void handle(String tick) {}
    }

    @Test
    void badScheduleMethods_failNamingTheMethod() {
        Contexts.on(server)
                .withBean(SameName.class)
                .run(failsWith("SameName.first()", "SameName.second()", "same schedule name 'report'"));
        Contexts.on(server)
                .withBean(BadCron.class)
                .run(failsWith("@QueueSchedule(cron = \"0 0 25 * * *\") on BadCron.report() is refused"));
        Contexts.on(server)
                .withBean(NeitherCronNorEvery.class)
                .run(failsWith("NeitherCronNorEvery.report() sets neither cron nor every"));
        Contexts.on(server).withBean(TakesAString.class).run(failsWith("TakesAString.report(String) takes [String]"));
        Contexts.on(server)
                .withBean(BadZone.class)
                .run(failsWith("zone = \"Europe/Atlantis\") on BadZone.report() is not a time zone"));
        Contexts.on(server)
                .withBean(ListensToTheScheduleQueue.class)
                .run(failsWith("ListensToTheScheduleQueue.handle(String)", "the queue of the @QueueSchedule methods"));
    }

    @Test
    void aScheduleQueueDeclaredAsAnotherType_failsNamingIt() {
        Contexts.on(server)
                .withBean(SchedulesOnly.class)
                .withPropertyValues("queuekit.queues.jobs.type=list", "queuekit.schedule-queue=jobs")
                .run(failsWith("queuekit.queues.jobs is the queue of the @QueueSchedule methods", "type=list"));
    }

    interface Job {}

    static class HiddenSchedule implements Job {
        @QueueSchedule(every = "1m")
        void run() {}
    }

    @Test
    void aScheduleMethodHiddenBehindAnInterfaceBeanType_failsRatherThanNeverRunning() {
        Contexts.on(server)
                .withBean(Job.class, HiddenSchedule::new)
                .run(failsWith("@QueueSchedule HiddenSchedule.run()", "was not seen"));
    }

    static class SchedulesOnly {
        @QueueSchedule(every = "1h")
        void hourly(Instant tick) {}
    }

    /** Injects the application's own delay queue of strings by type, and the schedule queue by name. */
    static class Reminders {
        @Autowired
        DelayQueue<String> reminders;

        @Autowired
        @Qualifier("queuekit-schedules")
        DelayQueue<String> schedules;
    }

    @Test
    void theScheduleQueue_isNoCandidate_forTheApplicationsOwnDelayQueueOfStrings() {
        Contexts.on(server)
                .withBean(SchedulesOnly.class)
                .withBean(Reminders.class)
                .withPropertyValues(
                        "queuekit.transport=in-memory",
                        "queuekit.in-memory.clock=manual",
                        "queuekit.queues.reminders.type=delay")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(Reminders.class).reminders.name())
                            .isEqualTo("reminders");
                    assertThat(context.getBean(Reminders.class).schedules.name())
                            .isEqualTo("queuekit-schedules");
                });
    }
}
