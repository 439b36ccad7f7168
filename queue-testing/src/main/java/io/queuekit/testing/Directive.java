package io.queuekit.testing;

import java.util.List;

/** One {@code redis.conf} line; values are written verbatim so multi-argument directives work. */
record Directive(String key, String value) {

    String line() {
        return key + " " + (value.isEmpty() ? "\"\"" : value);
    }

    /** A double-quoted conf string for paths, which may contain spaces. */
    static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    static String unquote(String s) {
        String t = s.trim();
        if (t.length() >= 2 && ((t.startsWith("\"") && t.endsWith("\"")) || (t.startsWith("'") && t.endsWith("'")))) {
            return t.substring(1, t.length() - 1);
        }
        return t;
    }

    static String render(List<Directive> managed, List<Directive> user) {
        StringBuilder sb = new StringBuilder("# Written by io.queuekit.testing.RedisServer; later lines win.\n");
        managed.forEach(d -> sb.append(d.line()).append('\n'));
        if (!user.isEmpty()) {
            sb.append("# from RedisServer.Builder.config(...)\n");
            user.forEach(d -> sb.append(d.line()).append('\n'));
        }
        return sb.toString();
    }
}
