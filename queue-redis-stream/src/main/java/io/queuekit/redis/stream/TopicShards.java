package io.queuekit.redis.stream;

import io.queuekit.Headers;
import io.queuekit.MessageId;
import io.queuekit.redis.internal.RedisCalls;
import io.queuekit.redis.internal.RedisContext;
import io.queuekit.redis.internal.Sharding;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * A topic's streams: one, or with {@code shards(n)} one per shard, each a whole topic's storage
 * under the shard's tag (its stream, its groups' keys, its retention). A message is published to
 * one shard: the next in turn, or its key's ({@link Sharding}); a batch without a key goes whole to
 * one shard, in one script. Ids a shard's publish returns end with the shard's suffix.
 *
 * @param <T> the payload type
 */
final class TopicShards<T> {

    /** One shard's stream: its scripts and its retention. */
    private static final class Shard {
        final RedisContext<?> context;
        final StreamScripts.Publish publish;
        final StreamScripts.Groups groups;
        final Retention retention;
        final ShardIds ids;
        final String streamKey;

        Shard(RedisContext<?> context, Retention retention, StreamScripts.Publish publish) {
            this.context = context;
            this.publish = publish;
            this.groups = new StreamScripts.Groups(context);
            this.retention = retention;
            this.ids = new ShardIds(context.idSuffix());
            this.streamKey = context.settings().keys().key("ready");
        }
    }

    /** What a publish stored: how many groups the topic has, and each message's id. */
    record Sent(long groups, List<MessageId> ids) {}

    private final RedisContext<T> topic;
    private final List<Shard> shards;
    /** Null for one shard. */
    private final Sharding<T> sharding;

    /**
     * @param topic the topic's context, of as many shards as {@code sharding} says
     * @param sharding null for an unsharded topic
     */
    TopicShards(RedisContext<T> topic, Sharding<T> sharding, long maxLength, Duration maxAge, long hardMaxLength) {
        this.topic = topic;
        this.sharding = sharding;
        List<RedisContext<T>> contexts = topic.shards();
        int n = contexts.size();
        List<Shard> out = new ArrayList<>(n);
        for (RedisContext<T> c : contexts) {
            Retention r = new Retention(
                    c.settings().keys().name(),
                    new StreamScripts.Trim(c),
                    Retention.share(maxLength, n),
                    maxAge,
                    Retention.share(hardMaxLength, n));
            out.add(new Shard(c, r, new StreamScripts.Publish(c)));
        }
        this.shards = List.copyOf(out);
    }

    int count() {
        return shards.size();
    }

    /** How messages go to shards; null for an unsharded topic. */
    Sharding<T> sharding() {
        return sharding;
    }

    /**
     * Encodes every payload (checking each, and computing every key) before anything is stored;
     * then stores them: in one script on one shard, or with a key one script per shard, in shard
     * order; then trims the shards written to, if it is time.
     */
    Sent publish(List<? extends T> payloads, Headers headers) {
        List<byte[]> sections = topic.encodeAll(payloads, headers);
        if (sharding == null || !sharding.keyed()) {
            int s = sharding == null ? 0 : sharding.next();
            return store(s, sections);
        }
        int[] homes = payloads.size() == 1 ? new int[] {sharding.of(payloads.get(0))} : sharding.ofEach(payloads);
        MessageId[] ids = new MessageId[payloads.size()];
        long groups = 0;
        for (int s = 0; s < shards.size(); s++) {
            List<Integer> at = new ArrayList<>();
            List<byte[]> part = new ArrayList<>();
            for (int i = 0; i < homes.length; i++) {
                if (homes[i] == s) {
                    at.add(i);
                    part.add(sections.get(i));
                }
            }
            if (!part.isEmpty()) {
                Sent sent = store(s, part);
                groups = Math.max(groups, sent.groups());
                for (int j = 0; j < at.size(); j++) {
                    ids[at.get(j)] = sent.ids().get(j);
                }
            }
        }
        return new Sent(groups, Arrays.asList(ids));
    }

    private Sent store(int index, List<byte[]> sections) {
        Shard s = shards.get(index);
        StreamScripts.Publish.Published p = s.publish.run(s.retention.hardCap(), sections);
        s.retention.afterPublish(p);
        List<MessageId> ids = new ArrayList<>(p.streamIds().size());
        for (String sid : p.streamIds()) {
            ids.add(s.ids.out(MessageId.of(MessageId.GENERATED_MARK + sid)));
        }
        return new Sent(p.groups(), ids);
    }

    /** The names of the groups of every shard (a group half created is on some only), sorted. */
    List<String> groupNames() {
        TreeSet<String> names = new TreeSet<>();
        for (Shard s : shards) {
            names.addAll(s.groups.run());
        }
        return new ArrayList<>(names);
    }

    /** The entries every shard's stream keeps: {@code XLEN} of each. */
    long size() {
        topic.checkShardCount("size");
        long n = 0;
        for (Shard s : shards) {
            n += RedisCalls.call(
                    s.context.label() + ": size", () -> topic.client().xlen(s.streamKey));
        }
        return n;
    }

    /** One soft trim pass on every shard now; how many entries it removed. */
    long trimNow() {
        long n = 0;
        for (Shard s : shards) {
            n += s.retention.trim();
        }
        return n;
    }
}
