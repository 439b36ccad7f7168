package io.queuekit.cli;

/**
 * Text from outside the program (ids, reasons and payloads read from Redis, error messages) made
 * safe to print on a terminal: nothing in it can move the cursor, change colours or the window
 * title, reorder what follows, or start a new line that looks like one of ours.
 */
final class Text {
    private Text() {}

    /**
     * {@code s} with every control, format and line-separator character written as an escape
     * ({@code \n}, {@code \r}, {@code \t}, {@code \0}, {@code \e} for ESC, else {@code \}{@code uXXXX}),
     * and the backslash doubled, so that the escapes cannot be forged either.
     */
    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        s.codePoints().forEach(c -> append(b, c, false));
        return b.toString();
    }

    /** {@code s} escaped as by {@link #escape} and in double quotes, with quotes inside escaped. */
    static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 18).append('"');
        s.codePoints().forEach(c -> append(b, c, true));
        return b.append('"').toString();
    }

    private static void append(StringBuilder b, int c, boolean quoted) {
        switch (c) {
            case '\\' -> b.append("\\\\");
            case '\n' -> b.append("\\n");
            case '\r' -> b.append("\\r");
            case '\t' -> b.append("\\t");
            case 0 -> b.append("\\0");
            case 0x1b -> b.append("\\e");
            case '"' -> b.append(quoted ? "\\\"" : "\"");
            default -> {
                if (inert(c)) {
                    b.appendCodePoint(c);
                } else {
                    b.append(c > 0xffff ? String.format("\\u{%x}", c) : String.format("\\u%04x", c));
                }
            }
        }
    }

    /** Not a control (C0, DEL, C1), format (bidirectional overrides, ...) or line separator character. */
    private static boolean inert(int c) {
        return switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                    Character.SURROGATE -> false;
            default -> true;
        };
    }
}
