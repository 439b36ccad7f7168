package io.queuekit.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;

/**
 * A redis-server child process on 127.0.0.1 with a private temp directory; serves both the PATH and the
 * EMBEDDED source, which differ only in where the executable comes from. All configuration goes through
 * a redis.conf in that directory so multi-argument directives need no command-line quoting. In sentinel
 * mode the same file is passed with {@code --sentinel}; Sentinel rewrites it, so it is written once per
 * start and never again on restart.
 */
final class LocalProcess implements Backend {

    static final String HOST = "127.0.0.1";

    private static final Logger LOG = LoggerFactory.getLogger(LocalProcess.class);
    private static final int PORT_ATTEMPTS = 5;
    private static final int RESTART_ATTEMPTS = 3;
    private static final Duration KILL_WAIT = Duration.ofSeconds(10);
    private static final int TAIL_LINES = 25;

    private final Path executable;
    private final String description;
    private final Path dir;
    private final Path confFile;
    private final Path logFile;
    private final Path outputFile;
    private final int port;
    private final Duration startupTimeout;
    private final String password;
    private final boolean sentinel;

    // Written under the lock, read without it by the shutdown hook, which must not wait for a start in progress.
    private volatile Process process;
    private OptionalInt lastExitCode = OptionalInt.empty();
    private long logOffset;
    private long outputOffset;
    private boolean closed;

    private LocalProcess(Path executable, String description, Path dir, int port, Settings settings) {
        this.executable = executable;
        this.description = settings.sentinel() ? description + " in sentinel mode" : description;
        this.dir = dir;
        this.confFile = dir.resolve("redis.conf");
        this.logFile = dir.resolve("redis.log");
        this.outputFile = dir.resolve("output.log");
        this.port = port;
        this.startupTimeout = settings.startupTimeout();
        this.password = settings.password();
        this.sentinel = settings.sentinel();
    }

    /**
     * Starts {@code executable} and waits until it answers; on a port conflict retries with a new free port
     * (unless the port was fixed). The data directory is deleted if no attempt succeeds.
     *
     * @param description names the binary in messages, e.g. "redis-server from PATH (/usr/bin/redis-server)"
     */
    static LocalProcess start(Path executable, String description, Settings settings) throws StartFailure {
        Path dir;
        try {
            dir = Files.createTempDirectory("queuekit-redis-");
        } catch (IOException e) {
            throw new StartFailure(
                    StartFailure.Kind.FAILED,
                    "cannot create a temp directory under " + System.getProperty("java.io.tmpdir") + ": " + e,
                    e);
        }
        int attempts = settings.port().isPresent() ? 1 : PORT_ATTEMPTS;
        StartFailure last = null;
        for (int attempt = 1; attempt <= attempts; attempt++) {
            int port = settings.port().isPresent()
                    ? settings.port().getAsInt()
                    : settings.portChooser().getAsInt();
            LocalProcess server = new LocalProcess(executable, description, dir, port, settings);
            ChildProcesses.register(server);
            try {
                server.writeConfig(settings);
                synchronized (server) {
                    server.launch();
                }
                return server;
            } catch (StartFailure failure) {
                server.killQuietly();
                ChildProcesses.unregister(server);
                last = failure;
                if (failure.kind() != StartFailure.Kind.PORT_IN_USE) {
                    break;
                }
                LOG.debug("port {} was taken before {} could bind it; trying another", port, description);
            }
        }
        deleteRecursively(dir);
        if (last.kind() == StartFailure.Kind.PORT_IN_USE && attempts > 1) {
            throw new StartFailure(
                    StartFailure.Kind.FAILED,
                    "another process took the chosen free port " + attempts + " times in a row; last attempt: "
                            + last.getMessage(),
                    last);
        }
        throw last;
    }

    private void writeConfig(Settings settings) throws StartFailure {
        List<Directive> managed = new ArrayList<>();
        managed.add(new Directive("port", Integer.toString(port)));
        managed.add(new Directive("bind", HOST));
        managed.add(new Directive("daemonize", "no"));
        managed.add(new Directive("supervised", "no"));
        managed.add(new Directive("dir", Directive.quote(dir.toString())));
        managed.add(new Directive("logfile", Directive.quote(logFile.toString())));
        managed.add(new Directive("always-show-logo", "no"));
        // a Sentinel keeps no dataset: what it learns, it writes into this file
        if (!sentinel) {
            if (settings.appendOnly()) {
                managed.add(new Directive("appendonly", "yes"));
                managed.add(new Directive("appendfsync", "always"));
            } else {
                managed.add(new Directive("save", ""));
                managed.add(new Directive("appendonly", "no"));
            }
        }
        try {
            Files.writeString(confFile, Directive.render(managed, settings.config()), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new StartFailure(StartFailure.Kind.FAILED, "cannot write " + confFile + ": " + e, e);
        }
    }

    /**
     * Starts the process. A binary this JVM has just extracted can be "Text file busy" for a moment:
     * a process another thread forked meanwhile holds the write handle until it execs, so that
     * error is retried for up to a second.
     */
    private Process start(ProcessBuilder builder) throws StartFailure {
        for (int attempt = 1; ; attempt++) {
            try {
                return builder.start();
            } catch (IOException e) {
                String message = String.valueOf(e.getMessage());
                if (!message.contains("error=26") || attempt == 20) {
                    throw new StartFailure(StartFailure.Kind.FAILED, "cannot run " + description + ": " + message, e);
                }
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StartFailure(StartFailure.Kind.FAILED, "interrupted while starting " + description, e);
            }
        }
    }

    /** Starts the process and waits for readiness; the caller holds the lock. */
    private void launch() throws StartFailure {
        logOffset = sizeOf(logFile);
        outputOffset = sizeOf(outputFile);
        List<String> command = new ArrayList<>(List.of(executable.toString(), confFile.toString()));
        if (sentinel) {
            command.add("--sentinel");
        }
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(outputFile.toFile()));
        process = start(builder);
        Readiness.Outcome outcome;
        try {
            outcome = Readiness.await(this::connect, process::isAlive, startupTimeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StartFailure(StartFailure.Kind.FAILED, "interrupted while waiting for " + description, e);
        }
        if (outcome.ready()) {
            return;
        }
        if (outcome.exited()) {
            int code = awaitExit(process);
            String output = readSince(outputFile, outputOffset) + readSince(logFile, logOffset);
            StartFailure.Kind kind = output.contains("FATAL CONFIG FILE ERROR")
                    ? StartFailure.Kind.CONFIG_REJECTED
                    : output.contains("Address already in use")
                            ? StartFailure.Kind.PORT_IN_USE
                            : StartFailure.Kind.FAILED;
            String why = kind == StartFailure.Kind.CONFIG_REJECTED
                    ? " because it rejected its configuration"
                    : kind == StartFailure.Kind.PORT_IN_USE ? " because port " + port + " is in use" : "";
            throw new StartFailure(
                    kind,
                    description + " on port " + port + " exited with code " + code + " during startup" + why + tails());
        }
        throw new StartFailure(
                StartFailure.Kind.FAILED,
                description + " on port " + port
                        + " did not answer PING within " + startupTimeout + " (last problem: " + outcome.problem() + ")"
                        + tails());
    }

    @Override
    public String host() {
        return HOST;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String uri() {
        return Uris.local(HOST, port, password);
    }

    @Override
    public Jedis connect(int timeoutMillis) {
        return new Jedis(
                HOST,
                port,
                JedisVersions.withoutProtocolNegotiation(DefaultJedisClientConfig.builder())
                        .connectionTimeoutMillis(timeoutMillis)
                        .socketTimeoutMillis(timeoutMillis)
                        .password(password)
                        .build());
    }

    @Override
    public boolean supportsProcessControl() {
        return true;
    }

    @Override
    public synchronized void kill() {
        ensureOpen("kill");
        Process p = process;
        if (p != null && p.isAlive()) {
            p.destroyForcibly();
            awaitExit(p);
        }
    }

    @Override
    public synchronized void stop() {
        ensureOpen("stop");
        Process p = process;
        if (p == null || !p.isAlive()) {
            return;
        }
        p.destroy();
        boolean exited;
        try {
            exited = p.waitFor(startupTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exited = false;
        }
        if (!exited) {
            LOG.warn("{} on port {} ignored SIGTERM for {}; killing it", description, port, startupTimeout);
            p.destroyForcibly();
        }
        awaitExit(p);
    }

    @Override
    public synchronized void restart() {
        ensureOpen("restart");
        stop();
        StartFailure last = null;
        for (int attempt = 1; attempt <= RESTART_ATTEMPTS; attempt++) {
            try {
                launch();
                return;
            } catch (StartFailure failure) {
                killQuietly();
                last = failure;
                if (failure.kind() != StartFailure.Kind.PORT_IN_USE
                        || Thread.currentThread().isInterrupted()) {
                    break;
                }
                // The port is ours by contract; a brief wait covers a client socket lingering on it.
                try {
                    Thread.sleep(200L * attempt);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        throw new RedisServerException("restart failed: " + last.getMessage(), last);
    }

    @Override
    public boolean isRunning() {
        Process p = process;
        return p != null && p.isAlive();
    }

    @Override
    public Optional<Path> dataDirectory() {
        return Optional.of(dir);
    }

    /** The process of the current or last run, for tests that check it is gone. */
    Optional<ProcessHandle> processHandle() {
        Process p = process;
        return p == null ? Optional.empty() : Optional.of(p.toHandle());
    }

    /** The exit code of the last run that ended, as Java reports it: 128 + signal for a signalled process. */
    synchronized OptionalInt lastExitCode() {
        return lastExitCode;
    }

    @Override
    public String version() {
        String version = Backend.super.version();
        if (!version.equals("unknown")) {
            return version;
        }
        // INFO can be refused (for example an aclfile without a default user); the startup banner cannot.
        String log = readSince(logFile, 0);
        int at = log.indexOf("Redis version=");
        if (at < 0) {
            return version;
        }
        String rest = log.substring(at + "Redis version=".length());
        int end = 0;
        while (end < rest.length() && (Character.isDigit(rest.charAt(end)) || rest.charAt(end) == '.')) {
            end++;
        }
        return end == 0 ? version : rest.substring(0, end);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        killQuietly();
        ChildProcesses.unregister(this);
        deleteRecursively(dir);
    }

    /** For the JVM shutdown hook: no lock, so a start in progress cannot delay JVM exit. */
    void killForShutdown() {
        Process p = process;
        if (p != null) {
            p.destroyForcibly();
            try {
                p.waitFor(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        deleteRecursively(dir);
    }

    @Override
    public String toString() {
        return description + " on " + HOST + ":" + port;
    }

    private void killQuietly() {
        Process p = process;
        if (p != null && p.isAlive()) {
            p.destroyForcibly();
            awaitExit(p);
        }
    }

    private int awaitExit(Process p) {
        try {
            if (p.waitFor(KILL_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                int code = p.exitValue();
                synchronized (this) {
                    lastExitCode = OptionalInt.of(code);
                }
                return code;
            }
            LOG.warn("{} on port {} (pid {}) did not exit within {}", description, port, p.pid(), KILL_WAIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return -1;
    }

    private void ensureOpen(String operation) {
        if (closed) {
            throw new IllegalStateException("cannot " + operation + " " + this + ": the RedisServer is closed");
        }
    }

    /** The tails of both files since the last launch, for failure messages. */
    private String tails() {
        return tail("output of the process", readSince(outputFile, outputOffset))
                + tail(logFile.toString(), readSince(logFile, logOffset));
    }

    private static String tail(String name, String text) {
        if (text.isBlank()) {
            return "";
        }
        List<String> lines = Arrays.asList(text.strip().split("\r?\n"));
        List<String> last = lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size());
        return "\n--- last " + last.size() + " lines of " + name + " ---\n" + String.join("\n", last);
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    private static String readSince(Path file, long offset) {
        try {
            byte[] bytes = Files.readAllBytes(file);
            int from = (int) Math.min(offset, bytes.length);
            return new String(bytes, from, bytes.length - from, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return "";
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e + ")";
        }
    }

    static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    Files.deleteIfExists(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("could not delete {}: {}", root, e.toString());
        }
    }
}
