package io.queuekit.redis.stream;

import io.queuekit.GroupInfo;
import io.queuekit.Position;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
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
    private static final Pattern SHARD_ID = Pattern.compile("@(\\d{1,19})-(\\d{1,20})~(\\d{1,3})");

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

    /**
     * The counts of a group over the shards that hold it, summed; its lag unknown (-1) if any
     * shard's is; {@code exists} only if every shard holds it, paused if any is.
     */
    static StreamScripts.Info.Counts sum(List<StreamScripts.Info.Counts> shards) {
        boolean all = true;
        boolean unknownLag = false;
        boolean paused = false;
        long lag = 0;
        long readyAgain = 0;
        long inFlight = 0;
        long delayed = 0;
        long dead = 0;
        long missed = 0;
        for (StreamScripts.Info.Counts c : shards) {
            if (!c.exists()) {
                all = false;
                continue;
            }
            unknownLag |= c.lag() < 0;
            lag += Math.max(0, c.lag());
            readyAgain += c.readyAgain();
            inFlight += c.inFlight();
            delayed += c.delayed();
            dead += c.dead();
            missed += c.missed();
            paused |= c.paused();
        }
        return new StreamScripts.Info.Counts(
                all, unknownLag ? -1 : lag, readyAgain, inFlight, delayed, dead, paused, missed);
    }

    static void checkName(String name) {
        Objects.requireNonNull(name, "name");
        if (!GROUP_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "group name must be 1 to 100 letters, digits, '.', '_' or '-' (a name beginning with '~' is a"
                            + " subscription's): '" + name + "'");
        }
    }

    /**
     * Where a position starts a group on shard {@code shard} of a topic of {@code count} shards. A
     * position after an id ({@code @<stream id>~<k>} on a sharded topic) starts after it on the
     * id's shard, and at the id's millisecond on the others (their entries of that millisecond
     * included: the shards have no order between them).
     *
     * @throws IllegalArgumentException for an id this topic cannot have given
     */
    static StreamScripts.Start start(Position p, int shard, int count) {
        if (count == 1 || p.afterId() == null) {
            return start(p);
        }
        String id = p.afterId().value();
        Matcher m = SHARD_ID.matcher(id);
        if (!m.matches() || Integer.parseInt(m.group(3)) >= count) {
            throw new IllegalArgumentException("not an id a stream topic of " + count
                    + " shards gave (@<stream id>~<shard" + " from 0 to " + (count - 1) + ">): " + id);
        }
        if (Integer.parseInt(m.group(3)) == shard) {
            return new StreamScripts.Start(m.group(1) + "-" + m.group(2), "id");
        }
        long ms;
        try {
            ms = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not an id a stream topic gave: " + id, e);
        }
        return start(Position.at(Instant.ofEpochMilli(ms)));
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
