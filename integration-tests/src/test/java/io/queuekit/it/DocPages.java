package io.queuekit.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The project's Markdown pages that its tests read: README.md, docs/*.md, the benchmark notebook. */
final class DocPages {
    /** The repository's root, seen from a module's directory, where Surefire runs the tests. */
    static final Path ROOT = Path.of("..");

    private DocPages() {}

    /** README.md first, then every page under docs/ in name order, then queue-benchmarks/README.md. */
    static List<Path> all() throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(ROOT.resolve("README.md"));
        pages.addAll(docs());
        Path benchmarks = ROOT.resolve("queue-benchmarks").resolve("README.md");
        if (Files.exists(benchmarks)) {
            pages.add(benchmarks);
        }
        return pages;
    }

    /** Every page under docs/, in name order. */
    static List<Path> docs() throws IOException {
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            return docs.filter(p -> p.getFileName().toString().endsWith(".md"))
                    .sorted()
                    .toList();
        }
    }

    /** The page's path from the repository's root, with forward slashes: {@code docs/work-queue.md}. */
    static String name(Path page) {
        return ROOT.relativize(page).toString().replace('\\', '/');
    }
}
