package io.queuekit.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;

/**
 * The redis-server binaries shipped at the root of the {@code com.github.codemonstur:embedded-redis} jar.
 * Only the files are used, not that library's API, so the process is managed exactly like a PATH binary.
 * A binary is extracted once per JVM and deleted at exit.
 */
final class EmbeddedBinary {

    private static Path extracted;
    private static String extractedResource;

    private EmbeddedBinary() {}

    /** The resource for this platform, or throws saying why there is none. */
    static String resourceFor(String osName, String osArch) throws StartFailure {
        String os = osName.toLowerCase(Locale.ROOT);
        String arch = osArch.toLowerCase(Locale.ROOT);
        boolean amd64 = arch.equals("amd64") || arch.equals("x86_64");
        boolean arm64 = arch.equals("aarch64") || arch.equals("arm64");
        boolean x86 = arch.equals("x86") || arch.equals("i386") || arch.equals("i686");
        if (os.contains("linux")) {
            if (amd64) {
                return "redis-server-6.2.6-v5-linux-amd64";
            }
            if (arm64) {
                return "redis-server-6.2.7-linux-arm64";
            }
            if (x86) {
                return "redis-server-6.2.7-linux-386";
            }
        } else if (os.contains("mac") || os.contains("darwin")) {
            if (amd64) {
                return "redis-server-6.2.6-v5-darwin-amd64";
            }
            if (arm64) {
                return "redis-server-6.2.6-v5-darwin-arm64";
            }
        } else if (os.contains("windows")) {
            throw new StartFailure(
                    StartFailure.Kind.FAILED,
                    "embedded-redis ships only Redis 5 for Windows and queuekit needs Redis 6.2 or newer");
        }
        throw new StartFailure(
                StartFailure.Kind.FAILED,
                "embedded-redis ships no redis-server for os.name=" + osName + ", os.arch=" + osArch);
    }

    /** Extracts this platform's binary (once per JVM) and returns its executable path. */
    static synchronized Path path(Settings.Platform platform) throws StartFailure {
        String resource = resourceFor(platform.osName(), platform.osArch());
        if (extracted != null && resource.equals(extractedResource) && Files.isExecutable(extracted)) {
            return extracted;
        }
        ClassLoader loader = EmbeddedBinary.class.getClassLoader();
        try (InputStream in = loader == null ? null : loader.getResourceAsStream(resource)) {
            if (in == null) {
                throw new StartFailure(
                        StartFailure.Kind.FAILED,
                        "resource " + resource
                                + " not found: is com.github.codemonstur:embedded-redis on the classpath?");
            }
            Path file = Files.createTempFile("queuekit-" + resource + "-", "");
            file.toFile().deleteOnExit();
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            try {
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
            } catch (UnsupportedOperationException e) {
                if (!file.toFile().setExecutable(true, true)) {
                    throw new IOException("cannot make " + file + " executable");
                }
            }
            extracted = file;
            extractedResource = resource;
            return file;
        } catch (IOException e) {
            throw new StartFailure(
                    StartFailure.Kind.FAILED,
                    "cannot extract " + resource + " to " + System.getProperty("java.io.tmpdir") + ": " + e,
                    e);
        }
    }
}
