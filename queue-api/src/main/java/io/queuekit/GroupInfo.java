package io.queuekit;

import java.util.Objects;

/**
 * A {@link ConsumerGroup} as stored at one moment, as {@link Topic#groups()} lists it.
 *
 * @param name the group's name
 * @param lag messages published that the group has not been handed yet; {@code -1} where the
 *     transport cannot count them (Redis, for a group started or replayed at a time or after an id
 *     that over 10,000 entries follow)
 * @param pending handed out and not yet acked, retries waiting for their delay included
 * @param dead the group's dead letters
 * @param missed messages a hard retention cap removed before this group had acked them, and, for a
 *     subscription's group, those soft retention removed before it read them
 * @param subscription whether the group is a {@link Topic#subscribe} subscription's, deleted when
 *     it closes
 */
public record GroupInfo(String name, long lag, long pending, long dead, long missed, boolean subscription) {

    /** Refuses a null name and negative counts (a lag of {@code -1} means unknown). */
    public GroupInfo {
        Objects.requireNonNull(name, "name");
        if (lag < -1 || pending < 0 || dead < 0 || missed < 0) {
            throw new IllegalArgumentException(
                    "counts must not be negative: " + lag + "/" + pending + "/" + dead + "/" + missed);
        }
    }
}
