package io.queuekit.cli;

import io.queuekit.Headers;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Text from outside the program (ids, reasons, headers and payloads read from Redis, error
 * messages) made safe to print on a terminal: nothing in it can move the cursor, change colours or
 * the window title, reorder what follows, or start a new line that looks like one of ours.
 */
final class Text {
    /** Payloads longer than this many characters are cut on screen. */
    static final int SHOWN = 200;

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
            case Character.CONTROL,
                    Character.FORMAT,
                    Character.LINE_SEPARATOR,
                    Character.PARAGRAPH_SEPARATOR,
                    Character.SURROGATE -> false;
            default -> true;
        };
    }

    /**
     * Headers for the screen: {@code headers {name="value", ...}} in their order, names escaped as
     * by {@link #escape} and values quoted as by {@link #quote}, each value cut after
     * {@value #SHOWN} characters with its full length said.
     */
    static String headers(Headers headers) {
        StringBuilder b = new StringBuilder("headers {");
        String separator = "";
        for (Map.Entry<String, String> h : headers.asMap().entrySet()) {
            String value = h.getValue();
            int shown = value.codePointCount(0, value.length());
            b.append(separator).append(escape(h.getKey())).append('=');
            if (shown > SHOWN) {
                b.append(quote(value.substring(0, value.offsetByCodePoints(0, SHOWN))))
                        .append("... (")
                        .append(shown)
                        .append(" characters)");
            } else {
                b.append(quote(value));
            }
            separator = ", ";
        }
        return b.append('}').toString();
    }

    /**
     * Payload bytes for the screen: quoted and escaped as by {@link #quote}, each byte that is not
     * part of valid UTF-8 written as {@code \xNN}, cut after {@value #SHOWN} characters with the
     * full size said.
     */
    static String payload(byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer chars = CharBuffer.allocate(bytes.length + 1);
        StringBuilder b = new StringBuilder(Math.min(bytes.length, SHOWN) + 16).append('"');
        int shown = 0;
        boolean cut = false;
        decoding:
        while (true) {
            CoderResult r = decoder.decode(in, chars, true);
            chars.flip();
            while (chars.hasRemaining()) {
                if (shown == SHOWN) {
                    cut = true;
                    break decoding;
                }
                char c = chars.get();
                append(
                        b,
                        Character.isHighSurrogate(c) && chars.hasRemaining()
                                ? Character.toCodePoint(c, chars.get())
                                : c,
                        true);
                shown++;
            }
            chars.clear();
            if (!r.isError()) {
                break;
            }
            for (int i = 0; i < r.length(); i++, shown++) {
                if (shown == SHOWN) {
                    cut = true;
                    break decoding;
                }
                b.append(String.format("\\x%02x", in.get() & 0xff));
            }
        }
        b.append('"');
        return cut ? b + "... (" + bytes.length + " bytes)" : b.toString();
    }

    /** The bytes as text if they are valid UTF-8; null if not. */
    static String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
