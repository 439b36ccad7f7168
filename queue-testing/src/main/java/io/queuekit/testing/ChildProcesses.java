package io.queuekit.testing;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Kills every child redis-server when the JVM exits, so none outlives a test run that forgot close().
 * One hook for all servers rather than one each, which would pile up in long test runs.
 */
final class ChildProcesses {

    private static final Set<LocalProcess> LIVE = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean HOOK_INSTALLED = new AtomicBoolean();

    private ChildProcesses() {}

    static void register(LocalProcess process) {
        if (HOOK_INSTALLED.compareAndSet(false, true)) {
            Runtime.getRuntime().addShutdownHook(new Thread(ChildProcesses::killAll, "queuekit-redis-shutdown"));
        }
        LIVE.add(process);
    }

    static void unregister(LocalProcess process) {
        LIVE.remove(process);
    }

    private static void killAll() {
        for (LocalProcess process : LIVE) {
            process.killForShutdown();
        }
    }
}
