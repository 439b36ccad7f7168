package io.queuekit;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A message's headers: a small map of text names to text values that travels beside the payload
 * (a correlation id, a tenant, a content type, a trace's {@code traceparent}). Stored and returned
 * exactly as given, in the order given, on every transport; kept through redelivery, retry, dead
 * letters and requeue.
 *
 * <p><b>What is accepted.</b> At most {@value #MAX_COUNT} headers of at most {@value #MAX_BYTES}
 * bytes in all (names and values in UTF-8), counted apart from the queue's
 * {@code maxPayloadBytes}. A name is 1 to {@value #MAX_NAME_LENGTH} characters, each a letter, a
 * digit or one of {@code !#$%&'*+-.^_`|~} (an HTTP header name's characters), compared exactly
 * (case matters). A value is any text (empty too) that UTF-8 can carry: one with an unpaired
 * surrogate is refused, since it could not come back as it went in. Anything else is refused with
 * {@link IllegalArgumentException} (null with {@link NullPointerException}) naming the header, and
 * a send given refused headers stores nothing.
 *
 * <p>Immutable and thread-safe; {@link #with} returns a copy. Equal when their maps are equal.
 */
public final class Headers {
    /** Most headers one message may carry. */
    public static final int MAX_COUNT = 64;

    /** Most bytes of names and values together, in UTF-8. */
    public static final int MAX_BYTES = 8 * 1024;

    /** Longest header name. */
    public static final int MAX_NAME_LENGTH = 128;

    private static final Headers EMPTY = new Headers(Map.of(), 0);

    private final Map<String, String> map;
    private final int bytes;

    private Headers(Map<String, String> map, int bytes) {
        this.map = map;
        this.bytes = bytes;
    }

    /** No headers. */
    public static Headers empty() {
        return EMPTY;
    }

    /** One header. */
    public static Headers of(String name, String value) {
        return EMPTY.with(name, value);
    }

    /**
     * The headers of {@code map}, in its iteration order.
     *
     * @throws NullPointerException if the map, a name or a value is null
     * @throws IllegalArgumentException if a name or value is refused (see the class comment) or
     *     the headers exceed {@link #MAX_COUNT} or {@link #MAX_BYTES}
     */
    public static Headers of(Map<String, String> map) {
        Objects.requireNonNull(map, "headers");
        if (map.isEmpty()) {
            return EMPTY;
        }
        LinkedHashMap<String, String> copy = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : map.entrySet()) {
            copy.put(checkName(e.getKey()), checkValue(e.getKey(), e.getValue()));
        }
        return checked(copy);
    }

    /**
     * These headers with {@code name} set to {@code value}: replaced in its place if present,
     * added last if not.
     *
     * @throws NullPointerException if the name or value is null
     * @throws IllegalArgumentException as {@link #of(Map)}
     */
    public Headers with(String name, String value) {
        checkValue(checkName(name), value);
        LinkedHashMap<String, String> copy = new LinkedHashMap<>(map);
        copy.put(name, value);
        return checked(copy);
    }

    /**
     * These headers with every header of {@code others} set, as {@link #with} sets one: where both
     * have a name, {@code others}' value wins.
     *
     * @throws IllegalArgumentException if the result exceeds {@link #MAX_COUNT} or {@link #MAX_BYTES}
     */
    public Headers withAll(Headers others) {
        Objects.requireNonNull(others, "headers");
        if (others.isEmpty()) {
            return this;
        }
        if (isEmpty()) {
            return others;
        }
        LinkedHashMap<String, String> copy = new LinkedHashMap<>(map);
        copy.putAll(others.map);
        return checked(copy);
    }

    /** The value of {@code name}, or null if there is no such header. */
    public String get(String name) {
        return map.get(Objects.requireNonNull(name, "name"));
    }

    /** The headers as an unmodifiable map, in their order. */
    public Map<String, String> asMap() {
        return map;
    }

    /** Whether there are none. */
    public boolean isEmpty() {
        return map.isEmpty();
    }

    /** How many there are. */
    public int size() {
        return map.size();
    }

    /** Bytes of names and values together in UTF-8: what {@link #MAX_BYTES} limits. */
    public int bytes() {
        return bytes;
    }

    private static Headers checked(Map<String, String> map) {
        if (map.size() > MAX_COUNT) {
            throw new IllegalArgumentException(
                    "a message may carry at most " + MAX_COUNT + " headers, not " + map.size());
        }
        int total = 0;
        for (Map.Entry<String, String> e : map.entrySet()) {
            total += e.getKey().length() + utf8Length(e.getValue());
        }
        if (total > MAX_BYTES) {
            throw new IllegalArgumentException("headers are " + total + " bytes, over the limit of " + MAX_BYTES
                    + " bytes (names and values in" + " UTF-8)");
        }
        return new Headers(Collections.unmodifiableMap(map), total);
    }

    private static String checkName(String name) {
        Objects.requireNonNull(name, "header name");
        if (name.isEmpty() || name.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException(
                    "a header name must be 1 to " + MAX_NAME_LENGTH + " characters, was " + name.length());
        }
        for (int i = 0; i < name.length(); i++) {
            if (!isNameChar(name.charAt(i))) {
                throw new IllegalArgumentException("header name " + quote(name) + " has a character not allowed in a"
                        + " header name at index " + i + " (letters, digits and !#$%&'*+-.^_`|~ are)");
            }
        }
        return name;
    }

    private static String checkValue(String name, String value) {
        Objects.requireNonNull(value, () -> "value of header " + name);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c)
                    && i + 1 < value.length()
                    && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException("value of header " + quote(name)
                        + " is not text UTF-8 can carry: an unpaired surrogate at index " + i);
            }
        }
        return value;
    }

    private static boolean isNameChar(char c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }

    private static int utf8Length(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    private static String quote(String name) {
        return '"' + name.replaceAll("\\p{Cntrl}", "?") + '"';
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Headers h && map.equals(h.map);
    }

    @Override
    public int hashCode() {
        return map.hashCode();
    }

    @Override
    public String toString() {
        return map.toString();
    }
}
