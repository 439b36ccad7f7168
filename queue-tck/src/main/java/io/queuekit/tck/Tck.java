package io.queuekit.tck;

import static org.assertj.core.api.Assertions.fail;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.TestInfo;

/** Helpers shared by the contract tests. */
final class Tck {
    /**
     * Bound for anything that is expected to happen: long enough never to be hit when it works
     * (10 s). The system property {@code queuekit.tck.patience} (an ISO-8601 duration) changes it,
     * for runs that expect failures, such as checking that the suite catches a broken transport.
     */
    static final Duration GENEROUS = Duration.parse(System.getProperty("queuekit.tck.patience", "PT10S"));
    static final long GENEROUS_MS = GENEROUS.toMillis();

    private Tck() {}

    /** A name unique to this test and run, so tests never share a queue, even on one server. */
    static String uniqueName(TestInfo info) {
        String method = info.getTestMethod().map(Method::getName).orElse("test");
        if (method.length() > 60) {
            method = method.substring(0, 60);
        }
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        return ("tck-" + method + "-" + suffix).toLowerCase(Locale.ROOT);
    }

    static ConditionFactory await() {
        return Awaitility.await()
                .atMost(GENEROUS)
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(10));
    }

    /**
     * Waits until {@code t} is parked (in a condition wait, or similar), or at most {@code max}.
     * A transport blocked in socket I/O stays RUNNABLE, so the bound is what applies to it.
     */
    static void awaitParked(Thread t, Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        while (System.nanoTime() - deadline < 0) {
            Thread.State s = t.getState();
            if (s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING || s == Thread.State.TERMINATED) {
                return;
            }
            Thread.sleep(2);
        }
    }

    /** Whether a live thread's name starts with {@code prefix}. */
    static boolean threadAlive(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.isAlive() && t.getName().startsWith(prefix));
    }

    /** A blocking call run on its own thread, so the test can interrupt it or wait for it with a bound. */
    static final class Call<V> {
        private final FutureTask<V> task;
        final Thread thread;

        private Call(String name, Callable<V> body) {
            this.task = new FutureTask<>(body);
            this.thread = new Thread(task, name);
            this.thread.setDaemon(true);
        }

        boolean isDone() {
            return task.isDone();
        }

        /** The call's result within {@link #GENEROUS}; fails the test if it threw or took longer. */
        V get() throws InterruptedException {
            try {
                return task.get(GENEROUS_MS, TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                throw new AssertionError("expected " + thread.getName() + " to return, but it threw " + e.getCause(),
                        e.getCause());
            } catch (TimeoutException e) {
                throw new AssertionError(thread.getName() + " did not return within " + GENEROUS);
            }
        }

        /** What the call threw within {@link #GENEROUS}; fails the test if it returned or took longer. */
        Throwable failure() throws InterruptedException {
            return failure(GENEROUS);
        }

        /** What the call threw within {@code bound}; fails the test if it returned or took longer. */
        Throwable failure(Duration bound) throws InterruptedException {
            try {
                V v = task.get(bound.toMillis(), TimeUnit.MILLISECONDS);
                return fail("expected " + thread.getName() + " to throw, but it returned " + v);
            } catch (ExecutionException e) {
                return e.getCause();
            } catch (TimeoutException e) {
                return fail(thread.getName() + " did not end within " + bound);
            }
        }
    }

    /** Starts calls on threads and stops the leftovers after the test. */
    static final class Calls {
        private final List<Call<?>> started = new ArrayList<>();

        synchronized <V> Call<V> start(String what, Callable<V> body) {
            Call<V> c = new Call<>("tck-" + what + "-" + (started.size() + 1), body);
            started.add(c);
            c.thread.start();
            return c;
        }

        synchronized void stopAll() throws InterruptedException {
            for (Call<?> c : started) {
                c.thread.interrupt();
            }
            for (Call<?> c : started) {
                c.thread.join(GENEROUS_MS);
            }
            started.clear();
        }
    }
}
