package io.queuekit.redis.pubsub;

import io.queuekit.internal.Checks;
import java.util.Objects;

/**
 * The patterns of {@link RedisBroadcaster#subscribePattern}: which ones are accepted, and which
 * channels a match names. What is easy to get wrong: Redis's glob matcher reads a pattern's sets
 * its own way, and an open set would take in the hash tag's closing brace; see
 * {@link #checkBrackets}.
 */
final class Patterns {
    private Patterns() {}

    /** {@code pattern}, if it holds only what a pattern may and every set it opens is closed; else throws. */
    static String checkPattern(String pattern) {
        Objects.requireNonNull(pattern, "pattern");
        if (pattern.isEmpty() || pattern.length() > 100) {
            throw new IllegalArgumentException("pattern must be 1 to 100 characters, was " + pattern.length());
        }
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || ".-_:*?[]^".indexOf(c) >= 0;
            if (!ok) {
                throw new IllegalArgumentException("pattern may hold only letters, digits, . _ - : and the glob "
                        + "characters * ? [ ] ^ but has '"
                        + (Character.isISOControl(c) ? "\\u" + Integer.toHexString(c) : c) + "' at index " + i
                        + ": " + pattern.replaceAll("\\p{Cntrl}", "?"));
            }
        }
        checkBrackets(pattern);
        return pattern;
    }

    /**
     * Refuses a pattern whose {@code [...]} sets are not closed within it, reading them as Redis's
     * glob matcher does: a {@code ^} right after {@code [} negates, the first {@code ]} closes (so
     * {@code []} is an empty set), and {@code x-y} is a range whose end may itself be {@code ]}.
     * An open set would take the closing brace of {@code <keyPrefix>:{<pattern>}} into it, and the
     * pattern could then match channels outside the broadcaster's namespace.
     */
    private static void checkBrackets(String pattern) {
        String subscribed = pattern + "}"; // what Redis reads after the pattern: the hash tag's closing brace
        int i = 0;
        while (i < pattern.length()) {
            char c = pattern.charAt(i);
            if (c == ']') {
                throw new IllegalArgumentException(
                        "pattern has a ']' at index " + i + " that closes no '[': " + pattern);
            }
            if (c != '[') {
                i++;
                continue;
            }
            int open = i++;
            if (subscribed.charAt(i) == '^') {
                i++;
            }
            while (true) {
                if (i >= pattern.length()) {
                    throw new IllegalArgumentException("pattern has a '[' at index " + open + " that no ']' closes"
                            + " (in a range such as a-] the ']' is the range's end): " + pattern + "; Redis would "
                            + "read the channel's closing brace into the set and could match channels that are "
                            + "not this broadcaster's");
                }
                if (subscribed.charAt(i) == ']') {
                    i++;
                    break;
                }
                i += subscribed.length() - i >= 3 && subscribed.charAt(i + 1) == '-' ? 3 : 1;
            }
        }
    }

    /**
     * The name in a broadcaster channel ({@code head}, a valid channel name, a closing brace), or
     * null if {@code channel} is not one: a glob's {@code *}, {@code ?} or negated set also matches braces and other
     * characters no channel name holds, so a pattern can match channels that other clients made.
     */
    static String channelName(String head, String channel) {
        if (!channel.startsWith(head) || !channel.endsWith("}")) {
            return null;
        }
        String name = channel.substring(head.length(), channel.length() - 1);
        try {
            return Checks.name(name);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
