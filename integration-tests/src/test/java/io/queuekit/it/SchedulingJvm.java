package io.queuekit.it;

import io.queuekit.Codec;
import io.queuekit.Schedule;
import io.queuekit.Scheduler;
import io.queuekit.Trigger;
import io.queuekit.redis.zset.RedisDelayQueue;
import io.queuekit.testing.RedisClients;
import java.time.Duration;
import redis.clients.jedis.RedisClient;

/**
 * A scheduler for {@link SchedulerAcrossJvmsTest}, run in its own JVM: declares the test's
 * schedule on the test's queue, says so on stdout, and runs the queue's schedules until it is
 * killed (or gives up after two minutes, so that it never outlives a broken test).
 *
 * <p>Arguments: host port queue schedule periodMillis payload
 */
public final class SchedulingJvm {
    private SchedulingJvm() {}

    public static void main(String[] args) throws Exception {
        try (RedisClient client = RedisClients.builder("redis://" + args[0] + ":" + args[1])
                        .poolSize(2)
                        .build();
                RedisDelayQueue<String> q =
                        RedisDelayQueue.builder(client, args[2], Codec.utf8()).build();
                Scheduler<String> scheduler = q.scheduler()) {
            scheduler.put(Schedule.of(args[3], Trigger.every(Duration.ofMillis(Long.parseLong(args[4]))), args[5]));
            System.out.println("SCHEDULING");
            System.out.flush();
            Thread.sleep(120_000);
        }
    }
}
