package io.queuekit.redis.stream;

import io.queuekit.GroupInfo;
import io.queuekit.Position;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How the API's group names, positions and counts meet what Redis takes and gives: the name check,
 * the {@code XGROUP} start of a {@link Position}, and a {@link GroupInfo} from a group's counts.
 * Easy to get wrong: a position at a time must start after every entry of the millisecond before
 * it, whatever its sequence numbers.
 */
final class GroupTerms {
    private static final Pattern GROUP_NAME = Pattern.compile("[A-Za-z0-9._-]{1,100}");
    private static final Pattern STREAM_ID = Pattern.compile("@(\\d{1,19})-(\\d{1,20})");

    private GroupTerms() {}

    static GroupInfo info(String name, StreamScripts.Info.Counts c) {
        return new GroupInfo(
                name,
                c.lag(),
                c.inFlight() + c.readyAgain() + c.delayed(),
                c.dead(),
                c.missed(),
                name.startsWith(StreamSubscription.PREFIX));
    }

    static void checkName(String name) {
        Objects.requireNonNull(name, "name");
        if (!GROUP_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "group name must be 1 to 100 letters, digits, '.', '_' or '-' (a name beginning with '~' is a"
                            + " subscription's): '" + name + "'");
        }
    }

    /** Where a position starts a group, as {@code XGROUP} takes it. */
    static StreamScripts.Start start(Position p) {
        if (p.isEnd()) {
            return new StreamScripts.Start("$", "end");
        }
        if (p.isBeginning()) {
            return new StreamScripts.Start("0", "beginning");
        }
        if (p.time() != null) {
            Instant t = p.time();
            if (!t.isAfter(Instant.EPOCH)) {
                return new StreamScripts.Start("0", "beginning");
            }
            long ms = t.toEpochMilli();
            if (!t.truncatedTo(ChronoUnit.MILLIS).equals(t)) {
                ms++; // entries of the millisecond t falls in came before it, or may have
            }
            // after the last entry of the millisecond before: the largest sequence number there is
            return new StreamScripts.Start((ms - 1) + "-18446744073709551615", "id");
        }
        String id = p.afterId().value();
        if (!STREAM_ID.matcher(id).matches()) {
            throw new IllegalArgumentException("not an id a stream topic gave: " + id);
        }
        return new StreamScripts.Start(id.substring(1), "id");
    }
}
