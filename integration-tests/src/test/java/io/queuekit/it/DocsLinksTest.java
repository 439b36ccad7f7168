package io.queuekit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every relative link of README.md and the pages under docs/ (and the benchmark notebook) leads to
 * a file that exists, and a link to a heading of a Markdown page to a heading that exists, named
 * as GitHub names its anchors; and README.md links every page under docs/.
 */
@Timeout(60)
class DocsLinksTest {
    /** An inline link {@code [text](target)} or {@code [text](target "title")}; the text may hold brackets. */
    private static final Pattern LINK =
            Pattern.compile("\\[(?:[^\\[\\]]|\\[[^\\]]*\\])*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");

    private static final Pattern FENCE = Pattern.compile("^```.*?^```", Pattern.MULTILINE | Pattern.DOTALL);
    private static final Pattern CODE = Pattern.compile("`[^`\\n]*`");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}[ \\t]+(.+?)[ \\t]*$", Pattern.MULTILINE);
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");

    @Test
    void everyRelativeLink_leadsToAnExistingFileAndHeading() throws IOException {
        List<String> dead = new ArrayList<>();
        for (Path page : DocPages.all()) {
            dead.addAll(deadLinks(DocPages.ROOT, page));
        }

        assertThat(dead)
                .as("dead links in README.md, docs/*.md and queue-benchmarks/README.md")
                .isEmpty();
    }

    @Test
    void readme_linksEveryDocsPage() throws IOException {
        Set<Path> linked = new HashSet<>();
        Path readme = DocPages.ROOT.resolve("README.md");
        for (String target : links(readme)) {
            linked.add(file(readme, target).toAbsolutePath().normalize());
        }

        List<String> unlinked = DocPages.docs().stream()
                .filter(page -> !linked.contains(page.toAbsolutePath().normalize()))
                .map(DocPages::name)
                .toList();

        assertThat(unlinked).as("docs pages README.md does not link").isEmpty();
    }

    @Test
    void aDeadLinkOrHeading_isReported(@TempDir Path root) throws IOException {
        Files.createDirectories(root.resolve("docs"));
        Files.writeString(
                root.resolve("docs").resolve("a.md"),
                "# Page A\n\n## The shard count (`shards(n)`)\n\n"
                        + "```bash\n# not a heading: [in code](nowhere.md)\n```\n\n## The shard count (`shards(n)`)\n");
        Path readme = root.resolve("README.md");
        Files.writeString(
                readme,
                "# Title\n\n"
                        + "[a](docs/a.md), [heading](docs/a.md#the-shard-count-shardsn), [second](docs/a.md#the-shard-count-shardsn-1), "
                        + "[`code` in text](docs/a.md#page-a), [here](#title), [dir](docs/), [web](https://example.com/x.md), "
                        + "`[in code](nowhere.md)`\n\n"
                        + "[missing](docs/b.md) and [no such heading](docs/a.md#not-a-heading) and [not here](#nope)\n");

        assertThat(deadLinks(root, readme))
                .containsExactly(
                        "README.md: docs/b.md (no such file)",
                        "README.md: docs/a.md#not-a-heading (no such heading)",
                        "README.md: #nope (no such heading)");
    }

    @Test
    void anchors_areGitHubs() {
        assertThat(anchor("Work queue on a Redis LIST (`queue-redis-list`)"))
                .isEqualTo("work-queue-on-a-redis-list-queue-redis-list");
        assertThat(anchor("Which transport?")).isEqualTo("which-transport");
        assertThat(anchor("Jedis under Spring Boot's dependency management"))
                .isEqualTo("jedis-under-spring-boots-dependency-management");
        assertThat(anchor("Deliveries: ack, retry, dead-letter, leases"))
                .isEqualTo("deliveries-ack-retry-dead-letter-leases");
    }

    /** The links of a page that lead nowhere, each as {@code page: target (why)}, the page named from root. */
    private static List<String> deadLinks(Path root, Path page) throws IOException {
        List<String> dead = new ArrayList<>();
        String name = root.relativize(page).toString().replace('\\', '/');
        for (String target : links(page)) {
            Path file = file(page, target);
            int hash = target.indexOf('#');
            if (!Files.exists(file)) {
                dead.add(name + ": " + target + " (no such file)");
            } else if (hash >= 0
                    && file.toString().endsWith(".md")
                    && !anchors(file).contains(target.substring(hash + 1))) {
                dead.add(name + ": " + target + " (no such heading)");
            }
        }
        return dead;
    }

    /** The relative link targets of a page, outside code. */
    private static List<String> links(Path page) throws IOException {
        String text = withoutCode(Files.readString(page, StandardCharsets.UTF_8));
        List<String> targets = new ArrayList<>();
        Matcher m = LINK.matcher(text);
        while (m.find()) {
            String target = m.group(1);
            if (!SCHEME.matcher(target).find()) {
                targets.add(target);
            }
        }
        return targets;
    }

    /** The file a relative link leads to: the page itself for {@code #anchor}. */
    private static Path file(Path page, String target) {
        int hash = target.indexOf('#');
        String path = hash >= 0 ? target.substring(0, hash) : target;
        return path.isEmpty()
                ? page
                : page.toAbsolutePath().getParent().resolve(path).normalize();
    }

    /** The anchors GitHub gives a page's headings: the second of two equal headings gets {@code -1}. */
    private static Set<String> anchors(Path page) throws IOException {
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        Matcher m = HEADING.matcher(withoutFences(Files.readString(page, StandardCharsets.UTF_8)));
        while (m.find()) {
            String anchor = anchor(m.group(1));
            int n = seen.merge(anchor, 1, Integer::sum) - 1;
            anchors.add(n == 0 ? anchor : anchor + "-" + n);
        }
        return anchors;
    }

    /** Lower case, punctuation other than '-' and '_' removed, each space a '-'. */
    private static String anchor(String heading) {
        return heading.toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N} _-]", "")
                .replace(' ', '-');
    }

    private static String withoutCode(String markdown) {
        return CODE.matcher(withoutFences(markdown)).replaceAll("code");
    }

    private static String withoutFences(String markdown) {
        return FENCE.matcher(markdown).replaceAll("");
    }
}
