package io.queuekit.tck;

import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A blocking call run on its own thread, so that a contract test can interrupt it or wait for it
 * with a bound. Started by {@link QueueContract#call}; the suite interrupts and joins whatever is
 * still running after the test.
 */
final class Call<V> {
    private final FutureTask<V> task;
    private final Thread thread;

    Call(String name, Callable<V> body) {
        this.task = new FutureTask<>(body);
        this.thread = new Thread(task, name);
        this.thread.setDaemon(true);
    }

    /** The thread the call runs on. */
    public Thread thread() {
        return thread;
    }

    /** Whether the call has returned or thrown. */
    public boolean isDone() {
        return task.isDone();
    }

    /**
     * The call's result within the suite's patience (10 s unless {@code queuekit.tck.patience} says
     * otherwise); fails the test if it threw or took longer.
     */
    public V get() throws InterruptedException {
        try {
            return task.get(Tck.GENEROUS_MS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError(
                    "expected " + thread.getName() + " to return, but it threw " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new AssertionError(thread.getName() + " did not return within " + Tck.GENEROUS);
        }
    }

    /** What the call threw within the suite's patience; fails the test if it returned or took longer. */
    public Throwable failure() throws InterruptedException {
        return failure(Tck.GENEROUS);
    }

    /** What the call threw within {@code bound}; fails the test if it returned or took longer. */
    public Throwable failure(Duration bound) throws InterruptedException {
        try {
            V v = task.get(bound.toMillis(), TimeUnit.MILLISECONDS);
            return fail("expected " + thread.getName() + " to throw, but it returned " + v);
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (TimeoutException e) {
            return fail(thread.getName() + " did not end within " + bound);
        }
    }

    void start() {
        thread.start();
    }
}
