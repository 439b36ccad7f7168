package io.queuekit.cli;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.Map;

/**
 * {@code queuekit <command> [options]}: the demo and the operator commands. Exit status 0 on
 * success, 1 when the command failed (unreachable Redis, unknown queue), 2 for wrong usage.
 */
public final class Main {
    static final String USAGE = """
            usage: queuekit <command> [options]

            commands:
              demo                  run every transport side by side and print what each delivered,
                                    duplicated and lost (starts its own Redis unless --redis is given)
              stats                 counts of a queue: ready, in flight, delayed, dead
              peek                  the next messages a queue will deliver, without taking them
              dead list|requeue|purge
                                    the dead letters of a queue
              help                  this text

            `queuekit <command> --help` describes a command's options.
            """;

    private Main() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err, System.getenv(), Terminal.system()));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, Map.of(), Terminal.NONE);
    }

    /** Runs one command; {@code env} and {@code terminal} stand for the process's, so tests can give their own. */
    static int run(String[] args, PrintStream out, PrintStream err, Map<String, String> env, Terminal terminal) {
        if (args.length == 0 || args[0].equals("help") || args[0].equals("--help") || args[0].equals("-h")) {
            out.print(USAGE);
            return args.length == 0 ? 2 : 0;
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        try {
            return switch (args[0]) {
                case "demo" -> Demo.run(rest, out);
                case "stats", "peek", "dead" -> Operator.run(args[0], rest, out);
                default -> throw new Args.UsageException("unknown command '" + args[0] + "'");
            };
        } catch (Args.UsageException e) {
            err.println("queuekit: " + e.getMessage());
            err.println("run `queuekit " + (isCommand(args[0]) ? args[0] + " --help" : "help") + "` for usage");
            return 2;
        } catch (Operator.Failure e) {
            err.println("queuekit: " + e.getMessage());
            return 1;
        }
    }

    private static boolean isCommand(String w) {
        return w.equals("demo") || w.equals("stats") || w.equals("peek") || w.equals("dead");
    }
}
