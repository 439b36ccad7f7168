package io.queuekit.cli;

import io.queuekit.MessageId;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.lang.reflect.Constructor;
import java.nio.charset.Charset;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * {@code queuekit <command> [options]}: the demo and the operator commands. Exit status 0 on
 * success, 1 when the command failed (unreachable Redis, unknown queue, not confirmed), 2 for wrong
 * usage. Every word must be understood: an unknown option or a word too many is an error, never
 * passed over, since passing over {@code --id X} turns "requeue one" into "requeue all".
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err, System.getenv(), Terminal.system()));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, Map.of(), Terminal.NONE);
    }

    /** Runs one command; {@code env} and {@code terminal} stand for the process's, so tests can give their own. */
    static int run(String[] args, PrintStream out, PrintStream err, Map<String, String> env, Terminal terminal) {
        Context ctx = new Context(out, err, env, terminal, new RedisUrl.Secrets());
        for (String word : args) {
            ctx.secrets().remember(word);
        }
        ctx.secrets().remember(env.get(RedisUrl.ENV));
        CommandLine line = new CommandLine(Root.class, factory(ctx));
        line.setExpandAtFiles(false); // "@name" is a word like any other, never a file to read arguments from
        line.registerConverter(MessageId.class, Main::messageId);
        line.registerConverter(QueueType.class, QueueType::parse);
        // the charset a PrintStream of System.out writes in, said out loud
        line.setOut(new PrintWriter(new OutputStreamWriter(out, Charset.defaultCharset()), true));
        line.setErr(new PrintWriter(new OutputStreamWriter(err, Charset.defaultCharset()), true));
        headings(line);
        line.setParameterExceptionHandler((e, words) -> usageError(ctx, e.getCommandLine(), explain(e)));
        line.setExecutionExceptionHandler((e, command, parsed) -> {
            if (e instanceof Usage) {
                return usageError(ctx, command, e.getMessage());
            }
            ctx.error(e instanceof Failure ? e.getMessage() : "failed: " + e);
            return 1;
        });
        int exit = line.execute(args);
        line.getOut().flush();
        line.getErr().flush();
        return exit;
    }

    /** The same help layout on every command: "usage: queuekit dead purge ...", then options. */
    private static void headings(CommandLine command) {
        command.getCommandSpec()
                .usageMessage()
                .synopsisHeading("usage: ")
                .descriptionHeading("%n")
                .optionListHeading("%noptions:%n")
                .commandListHeading("%ncommands:%n");
        command.getSubcommands().values().forEach(Main::headings);
    }

    /** Builds commands with the run's context when they take one. */
    private static CommandLine.IFactory factory(Context ctx) {
        CommandLine.IFactory plain = CommandLine.defaultFactory();
        return new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> type) throws Exception {
                Constructor<K> withContext;
                try {
                    withContext = type.getDeclaredConstructor(Context.class);
                } catch (NoSuchMethodException e) {
                    return plain.create(type);
                }
                return withContext.newInstance(ctx);
            }
        };
    }

    private static MessageId messageId(String text) {
        try {
            return MessageId.of(text);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }

    private static int usageError(Context ctx, CommandLine command, String message) {
        ctx.error(message);
        ctx.err().println("run `" + command.getCommandSpec().qualifiedName() + " --help` for usage");
        return 2;
    }

    /** The parser's complaint in our words, with a hint where a command has one. */
    private static String explain(ParameterException e) {
        CommandSpec spec = e.getCommandLine().getCommandSpec();
        if (e instanceof UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
            String word = u.getUnmatched().get(0);
            String hint = spec.userObject() instanceof Hints h ? h.hint(word) : "";
            if (word.startsWith("-")) {
                int eq = word.indexOf('=');
                return "unknown option '" + (eq > 0 ? word.substring(0, eq) : word) + "'" + hint;
            }
            if (!spec.subcommands().isEmpty()) {
                return "unknown command '" + word + "'" + (spec.parent() == null ? "" : " for " + spec.qualifiedName())
                        + " (one of " + String.join(", ", spec.subcommands().keySet()) + ")";
            }
            return "unexpected argument '" + word + "'" + hint;
        }
        String m = e.getMessage();
        return m.length() > 1 && Character.isUpperCase(m.charAt(0)) && Character.isLowerCase(m.charAt(1))
                ? Character.toLowerCase(m.charAt(0)) + m.substring(1)
                : m;
    }

    /** What a run reads from outside its arguments, where it writes, and what it must not show. */
    record Context(
            PrintStream out, PrintStream err, Map<String, String> env, Terminal terminal, RedisUrl.Secrets secrets) {
        /** One line on standard error, whatever the message holds, and never a password. */
        void error(String message) {
            err.println("queuekit: " + Text.escape(secrets.hide(String.valueOf(message))));
        }
    }

    /** A command that can say what a word it did not understand was probably meant to be. */
    interface Hints {
        /** Text to append to the error, starting with a space, or empty. */
        String hint(String word);
    }

    /** {@code -h} and {@code --help} on every command. */
    static final class HelpOption {
        @Option(
                names = {"-h", "--help"},
                usageHelp = true,
                description = "Show this help.")
        boolean help;
    }

    /** Wrong words on the command line, found once the command runs; exit status 2. */
    static final class Usage extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Usage(String message) {
            super(message);
        }
    }

    /** The command could not be carried out; the message says why. Exit status 1. */
    static final class Failure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Failure(String message) {
            super(message);
        }
    }

    @Command(
            name = "queuekit",
            customSynopsis = "queuekit <command> [options]",
            description = "The queuekit demo, and commands that look after a queue in a running Redis.",
            footer = {"", "`queuekit <command> --help` describes a command's options."},
            subcommands = {
                Demo.DemoCommand.class,
                Operator.Stats.class,
                Operator.Peek.class,
                Operator.Pause.class,
                Operator.Resume.class,
                Operator.Schedules.class,
                StreamCommands.Groups.class,
                DeadLetterCommands.Dead.class,
                CommandLine.HelpCommand.class
            })
    static final class Root implements Callable<Integer> {
        private final Context ctx;

        @CommandLine.Mixin
        HelpOption help;

        @Spec
        CommandSpec spec;

        Root(Context ctx) {
            this.ctx = ctx;
        }

        /** No command: the usage, and the exit status of wrong usage. */
        @Override
        public Integer call() {
            spec.commandLine().usage(ctx.out());
            return 2;
        }
    }
}
