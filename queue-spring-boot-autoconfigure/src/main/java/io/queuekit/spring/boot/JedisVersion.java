package io.queuekit.spring.boot;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import org.springframework.util.ClassUtils;

/**
 * The check that the Jedis on the classpath is one queuekit runs on. Spring Boot 4.0's dependency
 * management sets Jedis 7.0, which lacks the client classes queuekit is built on (from Jedis 8), so
 * an application on Boot's parent gets Jedis 7 unless it sets {@code jedis.version}; this turns the
 * {@code NoClassDefFoundError} it would meet deep inside a queue into a start-up failure that says
 * what to set.
 */
final class JedisVersion {
    /** The Jedis queuekit is built and tested with. */
    static final String REQUIRED = "8.0.2";
    /** A class Jedis 8 has and Jedis 7 lacks. */
    private static final String JEDIS_8_CLASS = "redis.clients.jedis.RedisClient";

    private JedisVersion() {}

    static void check(ClassLoader loader) {
        if (!ClassUtils.isPresent(JEDIS_8_CLASS, loader)) {
            throw new QueueConfigurationException(
                    "queuekit needs Jedis 8 or later, but Jedis " + found(loader)
                            + " is on the classpath (Spring Boot 4.0's dependency management sets jedis.version=7.0.0)",
                    "Set the Jedis version: in Maven <properties><jedis.version>" + REQUIRED
                            + "</jedis.version></properties>, " + "in Gradle ext['jedis.version'] = '" + REQUIRED
                            + "'.");
        }
    }

    /** The version in the Jedis jar's Maven metadata (its JedisMetaInfo is not public). */
    private static String found(ClassLoader loader) {
        try (InputStream in = loader.getResourceAsStream("META-INF/maven/redis.clients/jedis/pom.properties")) {
            if (in != null) {
                Properties pom = new Properties();
                pom.load(in);
                return pom.getProperty("version", "of an unknown version");
            }
        } catch (IOException e) {
            // reported as unknown
        }
        return "of an unknown version";
    }
}
