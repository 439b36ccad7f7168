package io.queuekit.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Testcontainers is an optional dependency: with it absent from the classpath, nothing may touch its
 * classes. This module's classes are loaded again in a class loader that cannot see Testcontainers, and
 * both AUTO (which must consider Docker and pass over it) and a forced DOCKER source are exercised.
 */
@Timeout(60)
class TestcontainersIsolationTest {

    /** Hides Testcontainers, and this module's classes so the child loader defines fresh copies of them. */
    private static final class HidingLoader extends ClassLoader {
        HidingLoader(ClassLoader parent) {
            super(parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("org.testcontainers.") || name.startsWith("io.queuekit.testing.")) {
                throw new ClassNotFoundException(
                        name + " is hidden by " + getClass().getSimpleName());
            }
            return super.loadClass(name, resolve);
        }

        @Override
        public URL getResource(String name) {
            return name.startsWith("org/testcontainers/") ? null : super.getResource(name);
        }
    }

    @Test
    void withoutTestcontainers_autoFallsBackAndDockerSaysWhy() throws Exception {
        URL classes = RedisServer.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader loader = new URLClassLoader(
                new URL[] {classes}, new HidingLoader(getClass().getClassLoader()))) {
            Class<?> serverClass = loader.loadClass(RedisServer.class.getName());
            assertThat(serverClass).isNotSameAs(RedisServer.class);
            Class<?> sourceClass = loader.loadClass(RedisServer.Source.class.getName());
            Class<?> platformClass = loader.loadClass(Settings.Platform.class.getName());
            Constructor<?> platformConstructor =
                    platformClass.getDeclaredConstructor(String.class, String.class, String.class);
            platformConstructor.setAccessible(true);
            Object noRedisOnPath =
                    platformConstructor.newInstance("", System.getProperty("os.name"), System.getProperty("os.arch"));

            Object builder = serverClass.getMethod("builder").invoke(null);
            Method platform = builder.getClass().getDeclaredMethod("platform", platformClass);
            platform.setAccessible(true);
            platform.invoke(builder, noRedisOnPath);
            try (AutoCloseable server =
                    (AutoCloseable) builder.getClass().getMethod("start").invoke(builder)) {
                assertThat(serverClass.getMethod("source").invoke(server)).hasToString("EMBEDDED");
            }

            Object dockerBuilder = serverClass.getMethod("builder").invoke(null);
            dockerBuilder
                    .getClass()
                    .getMethod("source", sourceClass)
                    .invoke(dockerBuilder, enumConstant(sourceClass, "DOCKER"));
            Throwable failure = null;
            try {
                dockerBuilder.getClass().getMethod("start").invoke(dockerBuilder);
            } catch (InvocationTargetException e) {
                failure = e.getCause();
            }
            assertThat(failure).isNotNull();
            assertThat(failure.getClass().getName()).isEqualTo(RedisServerException.class.getName());
            assertThat(failure)
                    .hasMessageContaining("Testcontainers (org.testcontainers:testcontainers) is not on the classpath");
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object enumConstant(Class<?> enumClass, String name) {
        return Enum.valueOf((Class) enumClass, name);
    }
}
