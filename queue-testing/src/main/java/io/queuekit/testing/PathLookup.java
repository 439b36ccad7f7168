package io.queuekit.testing;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/** Finds an executable on a PATH string the way a shell would: first match wins. */
final class PathLookup {

    private PathLookup() {}

    static Optional<Path> find(String executable, String pathVariable) {
        if (pathVariable == null || pathVariable.isBlank()) {
            return Optional.empty();
        }
        boolean windows =
                System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("windows");
        for (String entry : pathVariable.split(File.pathSeparator, -1)) {
            if (entry.isBlank()) {
                continue;
            }
            for (String name : windows ? new String[] {executable + ".exe", executable} : new String[] {executable}) {
                try {
                    Path candidate = Path.of(entry, name);
                    if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                        return Optional.of(candidate);
                    }
                } catch (InvalidPathException e) {
                    // A malformed PATH entry is skipped, as a shell would.
                }
            }
        }
        return Optional.empty();
    }
}
