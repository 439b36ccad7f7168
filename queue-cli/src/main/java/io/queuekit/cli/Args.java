package io.queuekit.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Command-line words: positional ones, and {@code --name value} options checked against a known set. */
final class Args {
    private final List<String> positional = new ArrayList<>();
    private final Map<String, String> options = new HashMap<>();
    private boolean help;

    static Args parse(String[] words, Set<String> known) {
        Args a = new Args();
        for (int i = 0; i < words.length; i++) {
            String w = words[i];
            if (w.equals("--help") || w.equals("-h")) {
                a.help = true;
            } else if (w.startsWith("--")) {
                String name = w.substring(2);
                String value = null;
                int eq = name.indexOf('=');
                if (eq >= 0) {
                    value = name.substring(eq + 1);
                    name = name.substring(0, eq);
                }
                if (!known.contains(name)) {
                    throw new UsageException("unknown option --" + name + " (known: --" + String.join(", --", known) + ")");
                }
                if (value == null) {
                    if (i + 1 >= words.length) {
                        throw new UsageException("option --" + name + " needs a value");
                    }
                    value = words[++i];
                }
                a.options.put(name, value);
            } else {
                a.positional.add(w);
            }
        }
        return a;
    }

    boolean help() {
        return help;
    }

    List<String> positional() {
        return positional;
    }

    String option(String name, String fallback) {
        return options.getOrDefault(name, fallback);
    }

    String required(String name) {
        String v = options.get(name);
        if (v == null) {
            throw new UsageException("missing --" + name);
        }
        return v;
    }

    int intOption(String name, int fallback, int min, int max) {
        String v = options.get(name);
        if (v == null) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(v);
            if (n < min || n > max) {
                throw new UsageException("--" + name + " must be " + min + " to " + max + ": " + v);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new UsageException("--" + name + " must be a whole number: " + v);
        }
    }

    /** Wrong words on the command line; the message is shown with the command's usage. */
    static final class UsageException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }
}
