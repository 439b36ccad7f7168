package io.queuekit.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * BullMQ, the Node job queue, as a peer: {@code queue-benchmarks/bullmq/bench.mjs} runs one of our
 * scenarios' shapes in a child {@code node} process (its warm-up, then the measured run), while
 * this reads Redis's CPU and command counts around the measured run as for our implementations.
 * The script tells where it is by lines on its output and waits for a line on its input after
 * each (see the script). Without {@code node}, or when {@code npm ci} fails, each run is a row
 * whose note says {@code n/a} and why; nothing here is needed by the tests.
 */
final class BullmqPeer {
    /** How a row that could not be run starts its note. */
    static final String NOT_AVAILABLE = "n/a";

    static final String SCRIPT = "bench.mjs";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long NPM_MINUTES = 10;

    private static final int MIN_NODE = 18;

    private final String node;
    private Path dir; // the script's directory, once ready
    private String unavailable; // why it cannot run, once known

    /** @param node the command that runs Node: {@code node} from PATH in the benchmark */
    BullmqPeer(String node) {
        this.node = node;
    }

    /** {@code ours} with BullMQ beside it: the same name, shape and summary, one more row. */
    Scenario beside(Scenario ours) {
        List<String> impls = new ArrayList<>(ours.impls());
        impls.add(Impls.BULLMQ);
        BullmqPeer peer = this;
        return new Scenario(ours.name(), ours.summary(), impls) {
            @Override
            Result run(String impl, Context ctx) throws Exception {
                return impl.equals(Impls.BULLMQ) ? peer.run(name(), ctx) : ours.run(impl, ctx);
            }
        };
    }

    /**
     * The warm-up and the measured run of {@code shape}, the name of one of our scenarios. For
     * {@code idle}, which sends nothing, the row's Redis CPU and commands are the run's totals.
     */
    Result run(String shape, Context ctx) throws IOException, InterruptedException {
        // the warm-up and the measured run each stop at the limit (idle: after a minute), then wait
        // at most 10 s for stragglers
        return script(shape, 2L * ctx.config().limitSeconds() + 120, ctx);
    }

    private Result script(String shape, long timeoutSeconds, Context ctx) throws IOException, InterruptedException {
        Optional<Path> ready = ready(ctx.config().bullmqDir());
        if (ready.isEmpty()) {
            return notAvailable(shape, unavailable);
        }
        BenchConfig cfg = ctx.config();
        List<String> command = new ArrayList<>(List.of(
                node,
                SCRIPT,
                "--handshake",
                "--redis",
                ctx.uri(),
                "--shape",
                shape,
                "--queue",
                ctx.freshName(shape),
                "--scale",
                Double.toString(cfg.scale()),
                "--time-scale",
                Double.toString(cfg.timeScale()),
                "--limit",
                Integer.toString(cfg.limitSeconds())));
        if (cfg.warmup()) {
            command.add("--warmup");
        }
        return measure(shape, command, ready.get(), timeoutSeconds, ctx);
    }

    private Result measure(String shape, List<String> command, Path dir, long timeoutSeconds, Context ctx)
            throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        CompletableFuture.delayedExecutor(timeoutSeconds, TimeUnit.SECONDS).execute(p::destroyForcibly);
        RedisProbe.Snapshot before = null;
        long cpuBefore = 0;
        long began = 0;
        double storing = Double.NaN;
        try (BufferedReader out =
                        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                Writer in = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8)) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                JsonNode event = parse(line);
                switch (event.path("event").asText()) {
                    case "ready" -> {
                        ctx.probe().flushAll(); // the warm-up's keys, as after our warm-up runs
                        before = ctx.probe().commandStats();
                        cpuBefore = ctx.probe().cpuMicros();
                        began = System.nanoTime();
                        go(in);
                    }
                    case "stored" -> {
                        storing = ctx.cpuSince(cpuBefore, System.nanoTime() - began);
                        go(in);
                    }
                    case "result" -> {
                        double cpu = ctx.cpuSince(cpuBefore, System.nanoTime() - began);
                        Result r = result(shape, event, cpu);
                        if (before == null) {
                            throw new IOException("bench.mjs gave a result before it was ready: " + command);
                        }
                        long per = Math.max(1, r.msgs()); // totals when nothing was sent
                        RedisProbe.Costs costs =
                                RedisProbe.costs(before, ctx.probe().commandStats(), per, 6);
                        System.out.println("   bullmq: " + line);
                        if (shape.equals(Scenarios.IDLE)) {
                            return IdleScenario.result(
                                    shape,
                                    Impls.BULLMQ,
                                    costs,
                                    event.path("window_s").asDouble() / 60);
                        }
                        return r.withCosts(Double.isNaN(storing) ? costs : costs.prefixed(split(storing, cpu, per)));
                    }
                    default -> System.out.println("   bullmq: " + line);
                }
            }
            p.waitFor(10, TimeUnit.SECONDS);
            String why = p.isAlive() ? "no result within " + timeoutSeconds + " s" : "exit status " + p.exitValue();
            throw new IOException("bench.mjs ended without a result (" + why + "): " + command);
        } finally {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            ctx.probe().flushAll();
        }
    }

    /** A line of the script's output as JSON, or an empty object for a line that is not. */
    private static JsonNode parse(String line) {
        try {
            return line.startsWith("{") ? JSON.readTree(line) : JSON.createObjectNode();
        } catch (IOException e) {
            return JSON.createObjectNode();
        }
    }

    private static void go(Writer in) throws IOException {
        in.write("go\n");
        in.flush();
    }

    /** As our delay scenarios say it for a backlog: Redis CPU storing it and draining it. */
    private static String split(double storing, double cpu, long msgs) {
        return String.format(
                Locale.ROOT,
                "storing %.2f us/msg and draining %.2f of Redis CPU; ",
                storing / msgs,
                (cpu - storing) / msgs);
    }

    /**
     * The script's result line as a row, with the Redis CPU the harness measured around it per
     * message (the total when nothing was sent).
     */
    static Result result(String shape, JsonNode r, double redisCpuMicros) {
        long msgs = r.path("received").asLong() + r.path("lost").asLong();
        Result out = new Result(
                shape,
                Impls.BULLMQ,
                msgs,
                r.path("msgs_per_s").asDouble(),
                r.path("p50_ms").asDouble(),
                r.path("p99_ms").asDouble(),
                r.path("max_ms").asDouble(),
                r.path("duplicates").asLong(),
                r.path("lost").asLong(),
                shape.startsWith("delay") ? OptionalLong.of(r.path("early").asLong()) : OptionalLong.empty(),
                OptionalDouble.of(redisCpuMicros / Math.max(1, msgs)),
                OptionalDouble.empty(),
                Impls.atLeastOnce(Impls.BULLMQ),
                r.path("note").asText(""),
                "");
        return r.has("producer_s")
                ? out.withProducerSeconds(r.path("producer_s").asDouble())
                : out;
    }

    static Result result(String shape, String json, double redisCpuMicros) throws IOException {
        return result(shape, JSON.readTree(json), redisCpuMicros);
    }

    /** A row for a run that could not be made, saying why. */
    static Result notAvailable(String shape, String why) {
        return Result.undelivered(shape, Impls.BULLMQ, 0, NOT_AVAILABLE + ": " + why, "");
    }

    /**
     * The script's directory with its packages installed ({@code npm ci} the first time), or empty
     * with {@link #unavailable} saying why. Decided once per benchmark run.
     */
    private synchronized Optional<Path> ready(Path given) throws InterruptedException {
        if (dir == null && unavailable == null) {
            unavailable = prepare(given);
        }
        return Optional.ofNullable(dir);
    }

    private String prepare(Path given) throws InterruptedException {
        Optional<Path> found = locate(given, Path.of("").toAbsolutePath(), codeSource());
        if (found.isEmpty()) {
            return given != null
                    ? "no " + SCRIPT + " in " + given
                    : "no queue-benchmarks/bullmq found (run from the repository's root, or give --bullmq-dir)";
        }
        Outcome version = Outcome.of(found.get(), 1, node, "--version");
        if (version.exit() != 0) {
            return "node not found (" + version + ")";
        }
        if (nodeMajor(version.last()) < MIN_NODE) {
            return "node " + version.last() + " is older than " + MIN_NODE;
        }
        if (!Files.isDirectory(found.get().resolve("node_modules").resolve("bullmq"))) {
            System.err.println("bench: installing BullMQ with npm ci in " + found.get());
            Outcome npm = Outcome.of(found.get(), NPM_MINUTES, "npm", "ci", "--no-audit", "--no-fund");
            if (npm.exit() != 0) {
                return "npm ci failed in " + found.get() + " (" + npm + ")";
            }
        }
        dir = found.get();
        return null;
    }

    /** The major version in {@code node --version}'s {@code v20.11.1}, or 0. */
    static int nodeMajor(String version) {
        Matcher m = Pattern.compile("v?(\\d+)\\..*").matcher(version);
        return m.matches() ? Integer.parseInt(m.group(1)) : 0;
    }

    /** How a command ended: its exit status (-1 if it could not start or did not end) and last line of output. */
    record Outcome(String command, int exit, String last) {
        static Outcome of(Path dir, long minutes, String... command) throws InterruptedException {
            String name = String.join(" ", command);
            Process p;
            try {
                p = new ProcessBuilder(command)
                        .directory(dir.toFile())
                        .redirectErrorStream(true)
                        .start();
            } catch (IOException e) {
                return new Outcome(name, -1, e.getMessage());
            }
            CompletableFuture.delayedExecutor(minutes, TimeUnit.MINUTES).execute(p::destroyForcibly);
            String last = "";
            try (InputStream out = p.getInputStream()) {
                for (String line : new String(out.readAllBytes(), StandardCharsets.UTF_8).split("\n", -1)) {
                    if (!line.isBlank()) {
                        last = line.strip();
                    }
                }
            } catch (IOException e) {
                last = e.toString();
            }
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Outcome(name, -1, "did not end");
            }
            return new Outcome(name, p.exitValue(), last);
        }

        @Override
        public String toString() {
            return command + (exit == -1 ? ": " : " exited with " + exit + ": ") + last;
        }
    }

    /**
     * Where the script is: {@code given} (from {@code --bullmq-dir}) if set, else
     * {@code queue-benchmarks/bullmq} or {@code bullmq} under the working directory, else beside
     * this code ({@code queue-benchmarks/target/queuekit-benchmarks.jar} or
     * {@code queue-benchmarks/target/classes}).
     */
    static Optional<Path> locate(Path given, Path workingDir, Path codeSource) {
        List<Path> candidates = new ArrayList<>();
        if (given != null) {
            candidates.add(given);
        } else {
            candidates.add(workingDir.resolve("queue-benchmarks").resolve("bullmq"));
            candidates.add(workingDir.resolve("bullmq"));
            Path p = codeSource;
            for (int up = 0; p != null && up < 3; up++, p = p.getParent()) {
                candidates.add(p.resolve("bullmq"));
            }
        }
        return candidates.stream()
                .filter(d -> Files.isRegularFile(d.resolve(SCRIPT)) && Files.isRegularFile(d.resolve("package.json")))
                .map(d -> d.toAbsolutePath().normalize())
                .findFirst();
    }

    private static Path codeSource() {
        try {
            return Path.of(BullmqPeer.class
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .toAbsolutePath();
        } catch (URISyntaxException | RuntimeException e) {
            return null;
        }
    }
}
