package io.queuekit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
 * Every Java block of the README compiles against the modules it names. A block is its imports,
 * then either a type declaration (compiled as it stands) or statements, compiled as the body of a
 * method of a subclass of the README's {@code Examples} block, which declares the names the
 * examples share.
 */
@Timeout(120)
class ReadmeSnippetsTest {
    private static final Pattern BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern DECLARATION = Pattern.compile(
            "\\A(@\\w+\\s+)*(public\\s+|abstract\\s+|final\\s+)*(class|record|interface|enum)\\s+(\\w+)");
    private static final String CONTEXT = "Examples";

    @Test
    void everyJavaBlock_compiles(@TempDir Path out) throws IOException {
        List<JavaFileObject> units = units(Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8));

        List<String> errors = compile(units, out);

        assertThat(units).as("Java blocks found in README.md").hasSizeGreaterThan(5);
        assertThat(errors).as("compiler errors in README.md's Java blocks").isEmpty();
    }

    @Test
    void aBlockThatDoesNotCompile_isReported(@TempDir Path out) throws IOException {
        String readme = "```java\nabstract class Examples {}\n```\n```java\nimport java.util.List;\n\nList<String> s = 42;\n```\n";

        List<String> errors = compile(units(readme), out);

        assertThat(errors).singleElement().asString().contains("block 2").contains("incompatible types");
    }

    private static List<JavaFileObject> units(String readme) {
        List<JavaFileObject> units = new ArrayList<>();
        Matcher m = BLOCK.matcher(readme);
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
            String label = "README.md Java block " + n;
            if (declaration.find()) {
                String name = declaration.group(4);
                units.add(source(name, label, imports + body.toString()));
            } else {
                String name = "ReadmeBlock" + n;
                units.add(source(name, label, imports + "abstract class " + name + " extends " + CONTEXT
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
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            List<String> options = List.of("-proc:none", "-d", out.toString(),
                    "-classpath", System.getProperty("java.class.path") + File.pathSeparator + out);
            javac.getTask(null, files, diagnostics, options, null, units).call();
        }
        return diagnostics.getDiagnostics().stream()
                .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                .map(d -> d.getSource() + ", line " + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT))
                .collect(Collectors.toList());
    }
}
