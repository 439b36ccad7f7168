package io.queuekit.redis.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.queuekit.MessageId;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.util.JedisClusterCRC16;

/** Shard tags and routing: pure functions of the name, the count, the key and the id. */
class ShardingTest {

    @Test
    void oneShard_keepsTheQueuesOwnKeys() {
        RedisKeys keys = RedisKeys.of("queuekit", "orders");

        assertThat(keys.shard(0, 1)).isSameAs(keys);
        assertThat(keys.shard(0, 1).key("ready")).isEqualTo("queuekit:{orders}:ready");
    }

    @Test
    void shardTags_areFixedByTheNameAndCountAlone() {
        // stored messages live under these: a change strands them, so it must be deliberate
        RedisKeys keys = RedisKeys.of("queuekit", "orders");

        assertThat(List.of(keys.shard(0, 3), keys.shard(1, 3), keys.shard(2, 3)))
                .extracting(k -> k.key("ready"))
                .containsExactly("queuekit:{orders~2}:ready", "queuekit:{orders~0}:ready", "queuekit:{orders~1}:ready");
        assertThat(keys.shard(1, 3).name()).isEqualTo("orders");
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5, 6, 16, 100, 255, 256})
    void eachShardTag_isTheSmallestNumberWhoseSlotLiesInsideItsRange(int count) {
        for (String name : List.of("orders", "a", "jobs.high-priority:eu", "x".repeat(100))) {
            for (int i = 0; i < count; i++) {
                String tag = RedisKeys.shardTag(name, i, count);
                int first = i * RedisKeys.SLOTS / count + 1;
                int last = (i + 1) * RedisKeys.SLOTS / count - 2;
                int k = Integer.parseInt(tag.substring(tag.lastIndexOf('~') + 1));

                assertThat(tag).isEqualTo(name + "~" + k);
                assertThat(JedisClusterCRC16.getSlot(tag))
                        .as("%s of %s shards", tag, count)
                        .isBetween(first, last);
                for (int smaller = 0; smaller < k; smaller++) {
                    int slot = JedisClusterCRC16.getSlot(name + "~" + smaller);
                    assertThat(slot < first || slot > last)
                            .as("%s~%s is outside", name, smaller)
                            .isTrue();
                }
                assertThat(JedisClusterCRC16.getSlot(
                                RedisKeys.of("p", name).shard(i, count).key("ready")))
                        .as("the key's slot is its tag's")
                        .isEqualTo(JedisClusterCRC16.getSlot(tag));
            }
        }
    }

    @Test
    void keyHash_isFnv1a64OfTheUtf8Text() {
        assertThat(Sharding.hash("")).isEqualTo(0xcbf29ce484222325L);
        assertThat(Sharding.hash("a")).isEqualTo(0xaf63dc4c8601ec8cL);
        assertThat(Sharding.hash("foobar")).isEqualTo(0x85944171f73967e8L);
    }

    @Test
    void aKey_alwaysGoesToTheSameShard_byItsText() {
        Sharding<String> s = new Sharding<>(7, Function.identity());
        Sharding<Integer> byNumber = new Sharding<>(7, n -> n);

        for (int i = 0; i < 100; i++) {
            assertThat(s.of("customer-" + i)).isEqualTo(s.of("customer-" + i)).isBetween(0, 6);
            assertThat(byNumber.of(i)).isEqualTo(s.of(String.valueOf(i)));
        }
    }

    @Test
    void withoutAKey_messagesGoToTheShardsInTurn() {
        Sharding<String> s = new Sharding<>(3, null);

        assertThat(List.of(s.of("a"), s.of("a"), s.of("a"), s.of("a"))).containsExactly(0, 1, 2, 0);
    }

    @Test
    void aNullKey_isRefused() {
        Sharding<String> s = new Sharding<>(3, p -> null);

        assertThatThrownBy(() -> s.of("a"))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("shardBy");
        assertThatThrownBy(() -> s.ofEach(List.of("a"))).isInstanceOf(NullPointerException.class);
    }

    @Test
    void home_ofAGeneratedId_isTheShardItsSuffixNames() {
        Sharding<String> s = new Sharding<>(12, null);

        assertThat(s.home(MessageId.of("@k3~0"))).isZero();
        assertThat(s.home(MessageId.of("@abc.k3~11"))).isEqualTo(11);
        assertThat(s.home(MessageId.of("@k3~12"))).as("no such shard").isEqualTo(-1);
        assertThat(s.home(MessageId.of("@k3~07")))
                .as("not as a shard writes it")
                .isEqualTo(-1);
        assertThat(s.home(MessageId.of("@k3~"))).isEqualTo(-1);
        assertThat(s.home(MessageId.of("@k3"))).as("generated unsharded").isEqualTo(-1);
        assertThat(s.home(MessageId.of("@k3~1x"))).isEqualTo(-1);
        assertThat(Sharding.idSuffix(4, 12)).isEqualTo("~4");
        assertThat(Sharding.idSuffix(0, 1)).isEmpty();
    }

    @Test
    void home_ofAChosenId_isItsHash_unlessMessagesGoByKey() {
        Sharding<String> unkeyed = new Sharding<>(5, null);
        Sharding<String> keyed = new Sharding<>(5, Function.identity());
        MessageId id = MessageId.of("order-42~3");

        assertThat(unkeyed.home(id)).isEqualTo(Math.floorMod(Sharding.hash("order-42~3"), 5));
        assertThat(unkeyed.ofChosenId(id, "payload")).isEqualTo(unkeyed.home(id));
        assertThat(keyed.home(id)).as("in the shard of its payload's key").isEqualTo(-1);
        assertThat(keyed.ofChosenId(id, "k")).isEqualTo(keyed.of("k"));
    }

    @Test
    void aShardCount_outOfRange_isRefused() {
        assertThatThrownBy(() -> new Sharding<>(1, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Sharding<>(257, null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RedisKeys.shardTag("a", 3, 3)).isInstanceOf(IllegalArgumentException.class);
    }
}
