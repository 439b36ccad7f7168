package io.queuekit.spring.boot;

import io.queuekit.Codec;
import io.queuekit.ConsumeOptions;
import io.queuekit.DelayQueue;
import io.queuekit.Delivery;
import io.queuekit.QueueClosedException;
import io.queuekit.Schedule;
import io.queuekit.ScheduleInfo;
import io.queuekit.Scheduler;
import io.queuekit.Subscription;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadFactory;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.util.ReflectionUtils;

/**
 * Runs the schedules: when the context has started, one {@link Scheduler} per delay queue with
 * schedules ({@code queuekit.schedules.*}, and the {@link QueueSchedule} methods on the schedule
 * queue) puts each one, and a consumer of the schedule queue calls the methods; when the context
 * closes, the consumer stops (running methods finish and are acked) and the schedulers close, before
 * any queue does. A put that fails (Redis down at start) is tried again on a thread of its own until
 * it succeeds, as listeners keep fetching.
 *
 * <p>Easy to get wrong: the schedule queue is the starter's, so a schedule stored there that no
 * method declares (one whose method was deleted) is removed at start; else it would fail on every
 * tick for ever.
 */
final class QueueSchedules implements SmartLifecycle {
    private static final Logger LOG = LoggerFactory.getLogger(QueueSchedules.class);
    /** Started after the listeners, so that a tick finds its listener consuming; stopped before them. */
    static final int PHASE = QueueListenerContainer.PHASE + 1;

    private static final Duration FIRST_RETRY = Duration.ofSeconds(1);
    private static final Duration LONGEST_RETRY = Duration.ofSeconds(30);

    private final QueueDefinitions definitions;
    private final QueueCatalog catalog;
    private final BeanFactory beans;
    /** Null if there are no schedule methods. */
    private final @Nullable ConsumeOptions options;
    /** The schedules to put, by queue name in name order, payloads decoded. */
    private final Map<String, List<Schedule<Object>>> declared;

    // guarded by this
    private final Map<String, Scheduler<Object>> schedulers = new LinkedHashMap<>();
    private @Nullable Subscription consumer;
    private @Nullable Thread retrying;
    private boolean running;

    QueueSchedules(
            QueueDefinitions definitions,
            QueueCatalog catalog,
            QueueFactory factory,
            BeanFactory beans,
            Duration phaseTimeout) {
        this.definitions = definitions;
        this.catalog = catalog;
        this.beans = beans;
        Map<String, List<Schedule<Object>>> byQueue = new TreeMap<>();
        for (PropertySchedule s : definitions.schedules.values()) {
            byQueue.computeIfAbsent(s.queue(), q -> new ArrayList<>())
                    .add(schedule(s, factory.codec(definitions.queues.get(s.queue()))));
        }
        if (definitions.scheduleQueue != null) {
            List<Schedule<Object>> methods = byQueue.computeIfAbsent(definitions.scheduleQueue, q -> new ArrayList<>());
            for (ScheduledMethod m : definitions.scheduledMethods.values()) {
                Schedule<String> s = m.schedule();
                methods.add(
                        Schedule.<Object>of(s.name(), s.trigger(), s.payload()).whenMissed(s.missed()));
            }
            ConsumeOptions.Builder o = QueueFactory.consumeOptions(definitions.queues.get(definitions.scheduleQueue))
                    .concurrency(definitions.scheduleConcurrency())
                    .shutdownTimeout(QueueListenerContainer.shutdownTimeout(phaseTimeout));
            if (beans.containsBean(VirtualThreads.BEAN)) {
                o.threadFactory(beans.getBean(VirtualThreads.BEAN, ThreadFactory.class));
            }
            this.options = o.build();
        } else {
            this.options = null;
        }
        byQueue.replaceAll((q, list) -> List.copyOf(list));
        this.declared = Collections.unmodifiableMap(byQueue);
    }

    /** The schedule a property entry declares, its payload text read by the queue's codec. */
    private static Schedule<Object> schedule(PropertySchedule s, Codec<?> codec) {
        Object payload;
        try {
            payload = codec.decode(s.payload().getBytes(StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            throw new QueueConfigurationException(
                    s.property("payload") + "=" + s.payload() + " cannot be read as a payload of queue '" + s.queue()
                            + "': " + e.getMessage(),
                    "Set " + s.property("payload") + " to the payload as the queue's codec reads it (JSON for a "
                            + "payload-type other than String and byte[]).",
                    e);
        }
        if (payload == null) {
            throw new QueueConfigurationException(
                    s.property("payload") + "=" + s.payload() + " is read as null by the codec of queue '" + s.queue()
                            + "'",
                    "Set " + s.property("payload") + " to a payload that is not null.");
        }
        return Schedule.of(s.name(), s.trigger(), payload)
                .withHeaders(s.headers())
                .whenMissed(s.missed());
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        if (options != null) {
            @SuppressWarnings("unchecked")
            DelayQueue<String> queue = (DelayQueue<String>) catalog.queue(definitions.scheduleQueue);
            consumer = queue.consume(this::run, options);
        }
        List<String> failed = new ArrayList<>();
        for (String queue : declared.keySet()) {
            if (!declare(queue)) {
                failed.add(queue);
            }
        }
        if (!failed.isEmpty()) {
            Thread t = new Thread(() -> retry(failed), "queuekit-" + failed.get(0) + "-schedules");
            t.setDaemon(true);
            retrying = t;
            t.start();
        }
    }

    /** Puts the queue's schedules with a scheduler of its own; false, logged, if that failed. */
    private boolean declare(String name) {
        @SuppressWarnings("unchecked")
        DelayQueue<Object> queue = (DelayQueue<Object>) catalog.queue(name);
        Scheduler<Object> scheduler;
        synchronized (this) {
            if (!running) {
                return true;
            }
            scheduler = schedulers.computeIfAbsent(name, q -> queue.scheduler());
        }
        try {
            for (Schedule<Object> schedule : declared.get(name)) {
                scheduler.put(schedule);
            }
            if (name.equals(definitions.scheduleQueue)) {
                for (ScheduleInfo<Object> stored : scheduler.list()) {
                    String s = stored.schedule().name();
                    if (!definitions.scheduledMethods.containsKey(s) && scheduler.remove(s)) {
                        LOG.info(
                                "queuekit {}: removed schedule '{}', which no @QueueSchedule method declares", name, s);
                    }
                }
            }
            return true;
        } catch (QueueClosedException e) {
            return true; // closing
        } catch (RuntimeException e) {
            LOG.warn("queuekit {}: could not store its schedules, trying again: {}", name, e.toString());
            return false;
        }
    }

    /** Declares the queues that failed until each succeeds or this stops, waiting longer each round. */
    private void retry(List<String> failed) {
        List<String> left = new ArrayList<>(failed);
        Duration wait = FIRST_RETRY;
        while (!left.isEmpty()) {
            synchronized (this) {
                try {
                    if (running) {
                        wait(wait.toMillis());
                    }
                } catch (InterruptedException e) {
                    return;
                }
                if (!running) {
                    return;
                }
            }
            left.removeIf(this::declare);
            wait = wait.multipliedBy(2).compareTo(LONGEST_RETRY) > 0 ? LONGEST_RETRY : wait.multipliedBy(2);
        }
    }

    /**
     * Calls the method of the tick's schedule with the tick, both read from the message's id
     * ({@code <name>@<tick>}). A message of a schedule no method here has (another version of the
     * application, in a rolling deployment) fails and is retried, perhaps by an instance that has it.
     */
    private void run(Delivery<String> delivery) throws Exception {
        String id = delivery.id().value();
        int at = id.indexOf('@');
        Instant tick;
        try {
            tick = at < 0 ? null : Instant.parse(id.substring(at + 1));
        } catch (DateTimeException e) {
            tick = null;
        }
        if (tick == null) {
            delivery.deadLetter("not a tick of a schedule: the id is not <name>@<instant>");
            return;
        }
        ScheduledMethod scheduled = definitions.scheduledMethods.get(id.substring(0, at));
        if (scheduled == null) {
            throw new IllegalStateException("no @QueueSchedule method of this application is named '"
                    + id.substring(0, at) + "' (" + definitions.scheduledMethods.keySet() + ")");
        }
        Object bean = beans.getBean(scheduled.beanName());
        Method method = AopUtils.selectInvocableMethod(scheduled.method(), bean.getClass());
        ReflectionUtils.makeAccessible(method);
        ManagedListener.invoke(bean, method, scheduled.takesTick() ? new Object[] {tick} : new Object[0]);
    }

    @Override
    public void stop() {
        Subscription closing;
        List<Scheduler<Object>> closingSchedulers;
        Thread t;
        synchronized (this) {
            running = false;
            notifyAll();
            closing = consumer;
            consumer = null;
            closingSchedulers = new ArrayList<>(schedulers.values());
            schedulers.clear();
            t = retrying;
            retrying = null;
        }
        // outside the lock: running methods may take long, and the retry thread takes the lock
        closingSchedulers.forEach(Scheduler::close);
        if (closing != null) {
            closing.close();
        }
        if (t != null) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
