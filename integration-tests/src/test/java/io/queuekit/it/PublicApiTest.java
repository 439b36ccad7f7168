package io.queuekit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The line between public API and internals, checked on the compiled classes of every published
 * module: no type from an {@code internal} package appears in anything a user can see (supertypes,
 * public or protected members, their generic arguments), and the README's module table lists
 * exactly each module's public top-level types.
 */
@Timeout(60)
class PublicApiTest {
    /** The modules users depend on; the rest (CLI, benchmarks, tests, fixtures) are not API. */
    private static final Set<String> PUBLISHED = Set.of(
            "queue-api",
            "queue-tck",
            "queue-inmemory",
            "queue-micrometer",
            "queue-redis-core",
            "queue-redis-list",
            "queue-redis-zset",
            "queue-redis-pubsub",
            "queue-redis-stream",
            "queue-testing",
            "queue-jackson3",
            "queue-spring-boot-autoconfigure");

    private static final Pattern JAR = Pattern.compile("(queue-[a-z0-9-]+?)-\\d[^/]*\\.jar");
    private static final Pattern CLASSES = Pattern.compile("(queue-[a-z0-9-]+)/target/classes/?");

    /** Module name to the public classes (top-level and nested) it holds outside internal packages. */
    private static final Map<String, List<Class<?>>> API = new TreeMap<>();

    @BeforeAll
    static void readClasspath() throws Exception {
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            String path = entry.replace('\\', '/');
            Matcher jar = JAR.matcher(path.substring(path.lastIndexOf('/') + 1));
            Matcher dir = CLASSES.matcher(path);
            String module = jar.matches() ? jar.group(1) : dir.find() ? dir.group(1) : null;
            if (module != null && PUBLISHED.contains(module)) {
                List<Class<?>> classes = new ArrayList<>();
                for (String name : classNames(Path.of(entry))) {
                    Class<?> c = Class.forName(name, false, PublicApiTest.class.getClassLoader());
                    if (isVisible(c) && !isInternal(c)) {
                        classes.add(c);
                    }
                }
                API.put(module, classes);
            }
        }
        assertThat(API.keySet()).as("published modules on the test classpath").isEqualTo(new TreeSet<>(PUBLISHED));
    }

    @Test
    void noInternalType_appearsInAPublicSignature() {
        List<String> leaks = new ArrayList<>();
        API.values().stream().flatMap(List::stream).forEach(c -> leaks.addAll(leaks(c)));
        assertThat(leaks).as("internal types reachable from public API").isEmpty();
    }

    @Test
    void readmeModuleTable_listsEachModulesPublicTypes() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"), StandardCharsets.UTF_8);
        Map<String, Set<String>> listed = new TreeMap<>();
        Pattern row = Pattern.compile("^\\| `(queue-[a-z0-9-]+)` \\| `([^|]*)` \\|(.*)\\|$", Pattern.MULTILINE);
        Matcher m = row.matcher(readme);
        while (m.find()) {
            Set<String> names = new TreeSet<>();
            Matcher name = Pattern.compile("`([A-Za-z][\\w.]*)`").matcher(m.group(3));
            while (name.find()) {
                names.add(m.group(2) + "." + name.group(1));
            }
            if (PUBLISHED.contains(m.group(1))) {
                listed.put(m.group(1), names);
            }
        }
        Map<String, Set<String>> actual = new TreeMap<>();
        API.forEach((module, classes) -> {
            Set<String> names = new TreeSet<>();
            classes.stream().filter(c -> c.getEnclosingClass() == null).forEach(c -> names.add(c.getName()));
            actual.put(module, names);
        });
        assertThat(listed)
                .as("README module table: `module` | `package` | `Type`, ... per published module")
                .isEqualTo(actual);
    }

    @Test
    void theCheck_findsALeak() {
        // a public method returning an internal type must be reported: the check can fail
        assertThat(leaks(Leaky.class)).singleElement().asString().contains("io.queuekit.internal.Checks");
    }

    /** For {@link #theCheck_findsALeak}: a public type whose public method returns an internal type. */
    public static final class Leaky {
        public io.queuekit.internal.Checks checks() {
            return null;
        }
    }

    private static List<String> leaks(Class<?> c) {
        List<String> found = new ArrayList<>();
        check(c, "supertype", c.getGenericSuperclass(), found);
        for (Type t : c.getGenericInterfaces()) {
            check(c, "supertype", t, found);
        }
        for (TypeVariable<?> v : c.getTypeParameters()) {
            check(c, "type parameter", v, found);
        }
        for (Field f : c.getDeclaredFields()) {
            if (isVisible(f.getModifiers())) {
                check(c, "field " + f.getName(), f.getGenericType(), found);
            }
        }
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            checkExecutable(c, k, "constructor", found);
        }
        for (Method method : c.getDeclaredMethods()) {
            if (!method.isSynthetic() && !method.isBridge()) {
                checkExecutable(c, method, "method " + method.getName(), found);
                if (isVisible(method.getModifiers())) {
                    check(c, "method " + method.getName(), method.getGenericReturnType(), found);
                }
            }
        }
        return found;
    }

    private static void checkExecutable(Class<?> c, Executable e, String what, List<String> found) {
        if (!isVisible(e.getModifiers())) {
            return;
        }
        for (Type t : e.getGenericParameterTypes()) {
            check(c, what, t, found);
        }
        for (Type t : e.getGenericExceptionTypes()) {
            check(c, what, t, found);
        }
        for (TypeVariable<?> v : e.getTypeParameters()) {
            check(c, what, v, found);
        }
    }

    private static void check(Class<?> owner, String where, Type type, List<String> found) {
        referenced(type, new TreeSet<>()).stream()
                .filter(PublicApiTest::isInternal)
                .forEach(t -> found.add(owner.getName() + " " + where + ": " + t));
    }

    /** Names of the classes a generic type mentions. */
    private static Set<String> referenced(Type type, Set<String> seen) {
        if (type instanceof Class<?> c) {
            Class<?> base = c;
            while (base.isArray()) {
                base = base.getComponentType();
            }
            seen.add(base.getName());
        } else if (type instanceof ParameterizedType p) {
            referenced(p.getRawType(), seen);
            for (Type a : p.getActualTypeArguments()) {
                referenced(a, seen);
            }
        } else if (type instanceof WildcardType w) {
            Stream.concat(Stream.of(w.getUpperBounds()), Stream.of(w.getLowerBounds()))
                    .forEach(b -> referenced(b, seen));
        } else if (type instanceof GenericArrayType a) {
            referenced(a.getGenericComponentType(), seen);
        } else if (type instanceof TypeVariable<?> v
                && seen.add("var " + v.getName() + "@" + v.getGenericDeclaration())) {
            for (Type b : v.getBounds()) {
                referenced(b, seen);
            }
        }
        return seen;
    }

    private static boolean isInternal(Class<?> c) {
        return isInternal(c.getName());
    }

    private static boolean isInternal(String className) {
        return className.startsWith("io.queuekit.") && className.contains(".internal.");
    }

    /** Public, or protected and so visible to a subclass, all the way out. */
    private static boolean isVisible(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getEnclosingClass()) {
            if (k.isAnonymousClass()
                    || k.isLocalClass()
                    || k.isSynthetic()
                    || !(k.getEnclosingClass() == null
                            ? Modifier.isPublic(k.getModifiers())
                            : isVisible(k.getModifiers()))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isVisible(int modifiers) {
        return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
    }

    private static List<String> classNames(Path root) throws IOException {
        List<String> names = new ArrayList<>();
        if (Files.isDirectory(root)) {
            try (Stream<Path> files = Files.walk(root)) {
                files.map(p -> root.relativize(p).toString().replace('\\', '/')).forEach(n -> addClass(n, names));
            }
        } else {
            try (JarFile jar = new JarFile(root.toFile())) {
                for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                    addClass(e.nextElement().getName(), names);
                }
            }
        }
        return names;
    }

    private static void addClass(String entry, List<String> names) {
        if (entry.endsWith(".class") && !entry.endsWith("module-info.class") && !entry.endsWith("package-info.class")) {
            names.add(entry.substring(0, entry.length() - ".class".length()).replace('/', '.'));
        }
    }
}
