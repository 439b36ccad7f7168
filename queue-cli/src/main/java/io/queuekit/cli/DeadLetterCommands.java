package io.queuekit.cli;

import static io.queuekit.cli.Operator.checkRange;
import static io.queuekit.cli.Operator.headers;
import static io.queuekit.cli.Operator.payload;
import static io.queuekit.cli.Operator.print;
import static io.queuekit.cli.Operator.withQueue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queuekit.DeadLetter;
import io.queuekit.DeadLetters;
import io.queuekit.MessageId;
import io.queuekit.cli.Operator.JsonOption;
import io.queuekit.cli.Operator.QueueOptions;
import io.queuekit.cli.Operator.Target;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The operator's dead-letter commands: {@code dead list}, {@code dead requeue}, {@code dead purge}. */
final class DeadLetterCommands {
    private DeadLetterCommands() {}

    @Command(
            name = "dead",
            description = "The dead letters of a queue: list, requeue, purge.",
            subcommands = {DeadList.class, DeadRequeue.class, DeadPurge.class})
    static final class Dead implements Callable<Integer> {
        @Mixin
        Main.HelpOption help;

        @Override
        public Integer call() {
            throw new Main.Usage("dead needs one of list, requeue, purge");
        }
    }

    @Command(name = "list", description = "Dead letters, oldest first, with their reasons, attempts and headers.")
    static final class DeadList implements Callable<Integer> {
        private final Main.Context ctx;

        @Mixin
        Main.HelpOption help;

        @Mixin
        QueueOptions options;

        @Mixin
        JsonOption output;

        @Option(
                names = "--limit",
                paramLabel = "N",
                defaultValue = "10",
                description = "How many, 1 to 10000 (default: ${DEFAULT-VALUE}).")
        int limit;

        DeadList(Main.Context ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() {
            checkRange("--limit", limit, 1, 10_000);
            return withQueue(ctx, options, t -> {
                List<DeadLetter<byte[]>> rows = t.queue().deadLetters().list(limit);
                if (output.json) {
                    ObjectNode doc = t.json();
                    ArrayNode list = doc.putArray("deadLetters");
                    for (DeadLetter<byte[]> d : rows) {
                        ObjectNode row = list.addObject()
                                .put("id", d.id().value())
                                .put("deadAt", d.deadAt().toString())
                                .put("attempts", d.attempts())
                                .put("reason", d.reason());
                        payload(headers(row, d.headers()), d.payload());
                    }
                    print(ctx, doc);
                    return 0;
                }
                if (rows.isEmpty()) {
                    ctx.out().println("(no dead letters)");
                }
                for (DeadLetter<byte[]> d : rows) {
                    ctx.out()
                            .println(Text.escape(d.id().value()) + "  " + d.deadAt() + "  attempts " + d.attempts()
                                    + "  reason: " + Text.quote(String.valueOf(d.reason()))
                                    + (d.headers().isEmpty() ? "" : "  " + Text.headers(d.headers()))
                                    + "  " + (d.payload() == null ? "(no payload)" : Text.payload(d.payload())));
                }
                return 0;
            });
        }
    }

    @Command(
            name = "requeue",
            description = {
                "Moves dead letters back to be delivered again.",
                "The one named by --id; without --id every one, which asks first on a terminal or needs --yes."
            })
    static final class DeadRequeue implements Callable<Integer>, Main.Hints {
        private final Main.Context ctx;

        @Mixin
        Main.HelpOption help;

        @Mixin
        QueueOptions options;

        @Option(names = "--id", paramLabel = "ID", description = "Only this dead letter.")
        MessageId id;

        @Option(names = "--yes", description = "Requeue every dead letter without asking.")
        boolean yes;

        @Option(names = "--dry-run", description = "Say what would be requeued, and change nothing.")
        boolean dryRun;

        DeadRequeue(Main.Context ctx) {
            this.ctx = ctx;
        }

        @Override
        public String hint(String word) {
            return word.startsWith("-") ? "" : " (to requeue one dead letter: --id " + word + ")";
        }

        @Override
        public Integer call() {
            return withQueue(ctx, options, t -> {
                DeadLetters<byte[]> dead = t.queue().deadLetters();
                if (id != null) {
                    return one(ctx, t, id, dryRun, "requeue", "requeued", dead::requeue);
                }
                long n = dead.size();
                if (dryRun) {
                    ctx.out()
                            .println("would requeue " + deadLetters(n) + " of " + t.describe()
                                    + "; nothing was changed");
                    return 0;
                }
                confirm(ctx, yes, "dead requeue", "requeue all " + deadLetters(n) + " of " + t.describe());
                ctx.out().println("requeued " + dead.requeueAll());
                return 0;
            });
        }
    }

    @Command(
            name = "purge",
            description = {
                "Deletes dead letters.",
                "The one named by --id; without --id every one, which asks first on a terminal or needs --yes."
            })
    static final class DeadPurge implements Callable<Integer>, Main.Hints {
        private final Main.Context ctx;

        @Mixin
        Main.HelpOption help;

        @Mixin
        QueueOptions options;

        @Option(names = "--id", paramLabel = "ID", description = "Only this dead letter.")
        MessageId id;

        @Option(names = "--yes", description = "Purge every dead letter without asking.")
        boolean yes;

        @Option(names = "--dry-run", description = "Say what would be purged, and change nothing.")
        boolean dryRun;

        DeadPurge(Main.Context ctx) {
            this.ctx = ctx;
        }

        @Override
        public String hint(String word) {
            return word.startsWith("-") ? "" : " (to purge one dead letter: --id " + word + ")";
        }

        @Override
        public Integer call() {
            return withQueue(ctx, options, t -> {
                DeadLetters<byte[]> dead = t.queue().deadLetters();
                if (id != null) {
                    return one(ctx, t, id, dryRun, "purge", "purged", dead::purge);
                }
                long n = dead.size();
                if (dryRun) {
                    ctx.out()
                            .println("would purge " + deadLetters(n) + " of " + t.describe() + "; nothing was changed");
                    return 0;
                }
                confirm(ctx, yes, "dead purge", "purge all " + deadLetters(n) + " of " + t.describe());
                ctx.out().println("purged " + dead.purge());
                return 0;
            });
        }
    }

    /**
     * Requeues or purges ({@code act}) the one dead letter {@code id}, which needs no confirmation;
     * with {@code dryRun} only says whether it would.
     */
    private static int one(
            Main.Context ctx,
            Target t,
            MessageId id,
            boolean dryRun,
            String verb,
            String done,
            Predicate<MessageId> act) {
        boolean found = dryRun ? t.queue().deadLetters().find(id).isPresent() : act.test(id);
        if (!found) {
            throw new Main.Failure("no dead letter with id " + id.value());
        }
        ctx.out()
                .println(
                        dryRun
                                ? "would " + verb + " dead letter " + Text.escape(id.value()) + " of " + t.describe()
                                        + "; nothing was changed"
                                : done + " 1");
        return 0;
    }

    private static String deadLetters(long n) {
        return n + (n == 1 ? " dead letter" : " dead letters");
    }

    /**
     * Goes on only with {@code --yes}, or when a person at the terminal answers yes; without a
     * terminal and without {@code --yes} it is a usage error, so a script never acts on every
     * dead letter by accident.
     */
    private static void confirm(Main.Context ctx, boolean yes, String command, String action) {
        if (yes) {
            return;
        }
        if (!ctx.terminal().interactive()) {
            throw new Main.Usage(command + " would " + action
                    + ": add --yes to do it, or --dry-run to see what it would do;" + " nothing was changed");
        }
        String answer = ctx.terminal().readLine("queuekit: " + action + "? [y/N] ");
        String a = answer == null ? "" : answer.trim().toLowerCase(Locale.ROOT);
        if (!a.equals("y") && !a.equals("yes")) {
            throw new Main.Failure("not confirmed; nothing was changed");
        }
    }
}
