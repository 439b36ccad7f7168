package io.queuekit.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Redis servers on one core, this JVM on the others, with Linux's {@code taskset}: so that the
 * clients' threads never run on the server's core and the server's CPU time is its own. Threads
 * and processes started later (Netty's, a peer's child process, a cluster's masters) inherit the
 * affinity of the thread that starts them, so servers started after the pinning are pinned by
 * {@link #pinServer}.
 */
final class Pinning {
    private static final long TASKSET_SECONDS = 10;

    private final int serverCore;
    private final String description;

    private Pinning(int serverCore, String description) {
        this.serverCore = serverCore;
        this.description = description;
    }

    /** No pinning, and why. */
    static Pinning off(String why) {
        return new Pinning(-1, "pinning off (" + why + ")");
    }

    /**
     * Pins the server {@code serverPid} to the first core this JVM may run on, and this JVM to the
     * rest; off, with the reason, where there are fewer than two such cores or no {@code taskset}.
     */
    static Pinning apply(long serverPid) {
        long self = ProcessHandle.current().pid();
        List<Integer> cores;
        try {
            cores = parseList(afterColon(taskset("-c", "-p", Long.toString(self))));
        } catch (IOException | RuntimeException e) {
            return off("no taskset: " + e.getMessage());
        }
        if (cores.size() < 2) {
            return off(cores.size() + " core");
        }
        String rest =
                cores.subList(1, cores.size()).stream().map(String::valueOf).collect(Collectors.joining(","));
        try {
            taskset("-a", "-c", "-p", Integer.toString(cores.get(0)), Long.toString(serverPid));
            taskset("-a", "-c", "-p", rest, Long.toString(self));
        } catch (IOException | RuntimeException e) {
            return off("taskset failed: " + e.getMessage());
        }
        return new Pinning(
                cores.get(0),
                "pinned: Redis on core " + cores.get(0) + ", this JVM and the processes it starts on cores " + rest);
    }

    boolean on() {
        return serverCore >= 0;
    }

    /** Pins a server started after {@link #apply} to the servers' core; nothing when off. */
    void pinServer(long pid) {
        if (!on()) {
            return;
        }
        try {
            taskset("-a", "-c", "-p", Integer.toString(serverCore), Long.toString(pid));
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("could not pin the Redis server " + pid + ": " + e.getMessage(), e);
        }
    }

    /** For the results' header. */
    String describe() {
        return description;
    }

    /** Cores from a list such as {@code 0-3,6}. */
    static List<Integer> parseList(String list) {
        List<Integer> out = new ArrayList<>();
        for (String part : list.trim().split(",", -1)) {
            int dash = part.indexOf('-');
            int from = Integer.parseInt(
                    part.substring(0, dash < 0 ? part.length() : dash).trim());
            int to = dash < 0 ? from : Integer.parseInt(part.substring(dash + 1).trim());
            for (int c = from; c <= to; c++) {
                out.add(c);
            }
        }
        return out;
    }

    private static String afterColon(String line) {
        return line.substring(line.lastIndexOf(':') + 1);
    }

    /** Runs taskset, returning what it printed; fails unless it exits with 0. */
    private static String taskset(String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add("taskset");
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(TASKSET_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not finish");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted", e);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " exited with " + p.exitValue() + ": " + out);
        }
        return out;
    }
}
