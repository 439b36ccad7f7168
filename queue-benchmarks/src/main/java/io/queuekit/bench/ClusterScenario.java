package io.queuekit.bench;

import io.queuekit.Codec;
import io.queuekit.redis.list.RedisListQueue;
import io.queuekit.testing.RedisCluster;
import io.queuekit.testing.RedisServer;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.RedisClusterClient;

/**
 * The work-queue load on a Redis Cluster of three masters started for the run (no replicas), a
 * list queue at least once: unsharded, where one master holds the whole queue, against
 * {@code shards(3)}, one shard per master. Redis CPU is read from every master, so the result
 * shows each master's share as well as the total per message.
 */
final class ClusterScenario extends WorkQueueScenario {
    static final int MASTERS = 3;

    ClusterScenario(String name, String summary, List<String> impls, int baseCount, int consumers) {
        super(name, summary, impls, baseCount, consumers, 1);
    }

    @Override
    Deployment deploy(String impl, Context ctx) {
        RedisCluster cluster = RedisCluster.builder().masters(MASTERS).start();
        try {
            RedisClusterClient client = cluster.client();
            RedisListQueue.Builder<String> b = RedisListQueue.builder(client, ctx.freshName(name()), Codec.utf8());
            if (impl.equals(Impls.LIST_ALO_SHARDS)) {
                b.shards(MASTERS);
            }
            return new OnCluster(cluster, new QueuekitQueue(b.build(), client), ctx.pinning());
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** A cluster of its own for one run, read on every master and closed after it. */
    private static final class OnCluster implements Deployment {
        private final RedisCluster cluster;
        private final QueueUnderTest queue;
        private final List<RedisProbe> probes = new ArrayList<>();
        private final double[] idle;

        OnCluster(RedisCluster cluster, QueueUnderTest queue, Pinning pinning) {
            this.cluster = cluster;
            this.queue = queue;
            try {
                for (RedisServer m : cluster.masters()) {
                    RedisProbe probe = new RedisProbe(m.uri());
                    probes.add(probe);
                    pinning.pinServer(probe.pid());
                }
            } catch (RuntimeException e) {
                probes.forEach(Impls::closeQuietly);
                throw e;
            }
            this.idle = idleMicrosPerSecond();
        }

        @Override
        public QueueUnderTest queue() {
            return queue;
        }

        @Override
        public RedisProbe.Snapshot commandStats() {
            RedisProbe.Snapshot sum = null;
            for (RedisProbe probe : probes) {
                RedisProbe.Snapshot s = probe.commandStats();
                sum = sum == null ? s : sum.plus(s);
            }
            return sum;
        }

        @Override
        public long[] cpuMicros() {
            long[] out = new long[probes.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = probes.get(i).cpuMicros();
            }
            return out;
        }

        @Override
        public double[] cpuSince(long[] before, long elapsedNanos) {
            long[] now = cpuMicros();
            double[] out = new double[now.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = Math.max(0, now[i] - before[i] - idle[i] * elapsedNanos / 1e9);
            }
            return out;
        }

        /** Each master's CPU per second over a second with no client working: the cluster bus, timers. */
        private double[] idleMicrosPerSecond() {
            long[] before = cpuMicros();
            long t0 = System.nanoTime();
            try {
                Thread.sleep(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            long[] after = cpuMicros();
            double seconds = (System.nanoTime() - t0) / 1e9;
            double[] out = new double[after.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = (after[i] - before[i]) / seconds;
            }
            return out;
        }

        @Override
        public void close() {
            probes.forEach(Impls::closeQuietly);
            cluster.close();
        }
    }
}
