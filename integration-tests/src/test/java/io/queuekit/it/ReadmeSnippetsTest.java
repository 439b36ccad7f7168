package io.queuekit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java block of the README and of the pages under docs/ compiles against the modules it
 * names. A block is its imports, then either a type declaration (compiled as it stands) or
 * statements, compiled as the body of a method of a subclass of the {@code Examples} block (in the
 * README), which declares the names the examples share. All blocks of all pages are compiled
 * together, so a page's example may use a type another page declares.
 */
@Timeout(120)
class ReadmeSnippetsTest {
    private static final Pattern BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern DECLARATION = Pattern.compile(
            "\\A(@\\w+\\s+)*(public\\s+|abstract\\s+|final\\s+)*(class|record|interface|enum)\\s+(\\w+)");
    private static final String CONTEXT = "Examples";

    @Test
    void everyJavaBlock_compiles(@TempDir Path out) throws IOException {
        List<JavaFileObject> units = new ArrayList<>();
        Set<String> declared = new HashSet<>();
        for (Path page : DocPages.all()) {
            units.addAll(units(DocPages.name(page), Files.readString(page, StandardCharsets.UTF_8), declared));
        }

        List<String> errors = compile(units, out);

        assertThat(units).as("Java blocks found in README.md and docs/*.md").hasSizeGreaterThan(15);
        assertThat(declared)
                .as("a page declares the " + CONTEXT + " block the examples extend")
                .contains(CONTEXT);
        assertThat(errors)
                .as("compiler errors in the Java blocks of README.md and docs/*.md")
                .isEmpty();
    }

    @Test
    void aBlockThatDoesNotCompile_isReported(@TempDir Path out) throws IOException {
        Set<String> declared = new HashSet<>();
        List<JavaFileObject> units =
                new ArrayList<>(units("README.md", "```java\nabstract class Examples {}\n```\n", declared));
        units.addAll(units(
                "docs/example.md",
                "```java\nint n = 1;\n```\n```java\nimport java.util.List;\n\nList<String> s = 42;\n```\n",
                declared));

        List<String> errors = compile(units, out);

        assertThat(errors)
                .singleElement()
                .asString()
                .contains("docs/example.md Java block 2")
                .contains("incompatible types");
    }

    /**
     * The compilation units of one page's Java blocks, labelled with the page and the block's
     * number in it; statement blocks become classes named after both, so names never clash across
     * pages. The names of the types the blocks declare are added to {@code declared}.
     */
    private static List<JavaFileObject> units(String file, String text, Set<String> declared) {
        List<JavaFileObject> units = new ArrayList<>();
        String prefix = "Block_" + file.replaceAll("\\.md$", "").replaceAll("[^A-Za-z0-9]", "_") + "_";
        Matcher m = BLOCK.matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
            StringBuilder imports = new StringBuilder();
            StringBuilder body = new StringBuilder();
            for (String line : m.group(1).split("\n", -1)) {
                if (body.length() == 0 && (line.startsWith("import ") || line.isBlank())) {
                    imports.append(line).append('\n');
                } else {
                    body.append(line).append('\n');
                }
            }
            Matcher declaration = DECLARATION.matcher(body);
            String label = file + " Java block " + n;
            if (declaration.find()) {
                String name = declaration.group(4);
                declared.add(name);
                units.add(source(name, label, imports + body.toString()));
            } else {
                String name = prefix + n;
                units.add(source(
                        name,
                        label,
                        imports + "abstract class " + name + " extends " + CONTEXT
                                + " {\n void run() throws Exception {\n" + body + "}\n}\n"));
            }
        }
        return units;
    }

    private static JavaFileObject source(String className, String label, String code) {
        return new SimpleJavaFileObject(URI.create("string:///" + className + ".java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return code;
            }

            @Override
            public String toString() {
                return label;
            }
        };
    }

    private static List<String> compile(List<JavaFileObject> units, Path out) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files =
                javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            List<String> options = List.of(
                    "-proc:none",
                    "-d",
                    out.toString(),
                    "-classpath",
                    System.getProperty("java.class.path") + File.pathSeparator + out);
            javac.getTask(null, files, diagnostics, options, null, units).call();
        }
        return diagnostics.getDiagnostics().stream()
                .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                .map(d -> d.getSource() + ", line " + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT))
                .collect(Collectors.toList());
    }
}
