package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * docs/runbooks.md on an HBase RegionServer: every HBase class and method it names, every async-profiler
 * {@code --include} pattern, every HBase setting and the comparators it sorts into copying and not
 * copying must be true of HBase's own classes (2.6.4, the RegionServer the module runs), read here by
 * reflection from the jars on this module's class path. A pattern that names no HBase class must name
 * a class and method of the example server's source.
 */
class RunbookHBaseNamesTest {

    /** `org.apache.hadoop.hbase.Some.Class` or `...Class#method`, in backticks. */
    private static final Pattern HBASE_NAME =
            Pattern.compile("`(org\\.apache\\.hadoop\\.hbase\\.[A-Za-z0-9_.]*[A-Za-z0-9_])(?:#(\\w+))?`");

    private static final Pattern INCLUDE = Pattern.compile("--include '\\*?([^'*]+)\\*?'");
    private static final Pattern SETTING = Pattern.compile("`((?:hbase|hfile)\\.[a-z0-9.]*[a-z0-9])(?:=[^`]*)?`");
    private static final Pattern SYSTEM_PROPERTY =
            Pattern.compile("`-D(org\\.apache\\.hbase\\.thirdparty\\.[\\w.]+)=\\w+`");
    private static final Pattern SIMPLE_NAME = Pattern.compile("`(\\w+)`");

    private static Path repo;
    private static String runbooks;

    @BeforeAll
    static void read() throws IOException {
        repo = Path.of(RegionServerProcess.required("blockscope.dashboards"))
                .getParent()
                .toRealPath();
        runbooks = Files.readString(repo.resolve("docs/runbooks.md"), StandardCharsets.UTF_8)
                .replaceAll("\\s*\n\\s*", " ");
    }

    @Test
    void everyHBaseClassAndMethodTheRunbooksNameExists() {
        Map<String, String> cited = citedHBaseNames();
        assertTrue(cited.size() >= 10, "HBase names the runbooks cite: " + cited.keySet());
        List<String> wrong = new ArrayList<>();
        cited.forEach((citation, method) -> {
            String className = citation.contains("#") ? citation.substring(0, citation.indexOf('#')) : citation;
            Class<?> type = load(className);
            if (type == null) {
                wrong.add(citation + ": no such class in HBase " + version());
            } else if (method != null && methodsNamed(type, method::equals).isEmpty()) {
                wrong.add(citation + ": " + type.getName() + " has no method " + method);
            }
        });
        assertEquals(List.of(), wrong, "names in docs/runbooks.md that HBase " + version() + " does not have");
    }

    @Test
    void everyAsyncProfilerPatternMatchesAMethodOfTheClassItNames() throws IOException {
        Matcher m = INCLUDE.matcher(runbooks);
        List<String> patterns = new ArrayList<>();
        while (m.find()) {
            patterns.add(m.group(1));
        }
        assertTrue(patterns.size() >= 3, "async-profiler --include patterns: " + patterns);
        Map<String, Class<?>> bySimpleName = new LinkedHashMap<>();
        for (String citation : citedHBaseNames().keySet()) {
            Class<?> type = load(citation.replaceAll("#.*", ""));
            if (type != null) {
                bySimpleName.put(type.getSimpleName(), type);
            }
        }
        List<String> wrong = new ArrayList<>();
        boolean anHBasePattern = false;
        for (String pattern : patterns) {
            String simpleName = pattern.substring(0, pattern.lastIndexOf('.'));
            String methodPrefix = pattern.substring(pattern.lastIndexOf('.') + 1);
            Class<?> type = bySimpleName.get(simpleName);
            if (type != null) {
                anHBasePattern = true;
                if (methodsNamed(type, n -> n.startsWith(methodPrefix)).isEmpty()) {
                    wrong.add(pattern + ": " + type.getName() + " has no method " + methodPrefix + "*");
                }
            } else if (!exampleServerHasMethod(simpleName, methodPrefix)) {
                wrong.add(pattern + ": neither an HBase class the runbooks name in full nor an example-server"
                        + " class with a method " + methodPrefix + "*");
            }
        }
        assertTrue(anHBasePattern, "an async-profiler pattern for HBase's own classes: " + patterns);
        assertEquals(List.of(), wrong, "async-profiler patterns in docs/runbooks.md");
    }

    @Test
    void everyHBaseSettingTheRunbooksNameIsAnHBaseKey() throws Exception {
        Set<String> known = new TreeSet<>(hbaseDefaultKeys());
        known.addAll(stringConstants(Class.forName("org.apache.hadoop.hbase.HConstants")));
        for (String citation : citedHBaseNames().keySet()) {
            Class<?> type = load(citation.replaceAll("#.*", ""));
            if (type != null) {
                known.addAll(stringConstants(type));
            }
        }
        Matcher m = SETTING.matcher(runbooks);
        Set<String> settings = new TreeSet<>();
        while (m.find()) {
            settings.add(m.group(1));
        }
        assertTrue(settings.size() >= 3, "HBase settings the runbooks name: " + settings);
        Set<String> unknown = new TreeSet<>(settings);
        unknown.removeAll(known);
        assertEquals(Set.of(), unknown, "settings in docs/runbooks.md that HBase " + version() + " does not read");
    }

    @Test
    void theLeakDetectorPropertyIsTheOneHBasesNettyReads() throws Exception {
        Matcher m = SYSTEM_PROPERTY.matcher(runbooks);
        assertTrue(m.find(), "the runbooks name the system property of HBase's own leak detector");
        // hbase-thirdparty relocates Netty, and with it the name of the property Netty reads.
        Field level = Class.forName("org.apache.hbase.thirdparty.io.netty.util.ResourceLeakDetector")
                .getDeclaredField("PROP_LEVEL");
        level.setAccessible(true);
        assertEquals(level.get(null), m.group(1));
        assertTrue(
                Stream.of(Class.forName("org.apache.hadoop.hbase.nio.RefCnt").getDeclaredFields())
                        .anyMatch(f -> f.getType().getName().endsWith(".ResourceLeakDetector")),
                "HBase's RefCnt has a Netty leak detector");
    }

    @Test
    void theComparatorsTheRunbooksSortIntoCopyingAndNotCopyingAreSo() throws Exception {
        List<String> copying = names("keep the copying default:", ";");
        List<String> overriding = names("those that override it:", "(");
        assertFalse(copying.isEmpty(), "comparators that copy");
        assertFalse(overriding.isEmpty(), "comparators that do not");
        assertAll(Stream.concat(
                copying.stream()
                        .map(c -> () -> assertFalse(
                                overridesBufferCompare(c), c + " overrides compareTo(ByteBuffer, int, int)")),
                overriding.stream()
                        .map(c -> () -> assertTrue(
                                overridesBufferCompare(c), c + " does not override compareTo(ByteBuffer, int, int)"))));
    }

    private static boolean overridesBufferCompare(String simpleName) throws ClassNotFoundException {
        Class<?> comparator = Class.forName("org.apache.hadoop.hbase.filter." + simpleName);
        assertTrue(
                Class.forName("org.apache.hadoop.hbase.filter.ByteArrayComparable")
                        .isAssignableFrom(comparator),
                simpleName + " is a ByteArrayComparable");
        return Stream.of(comparator.getDeclaredMethods())
                .anyMatch(method -> method.getName().equals("compareTo")
                        && List.of(method.getParameterTypes()).equals(List.of(ByteBuffer.class, int.class, int.class)));
    }

    /** Backticked simple names between {@code from} and the next {@code to}. */
    private static List<String> names(String from, String to) {
        int start = runbooks.indexOf(from);
        assertTrue(start >= 0, "the runbooks say '" + from + "'");
        String part = runbooks.substring(start + from.length(), runbooks.indexOf(to, start + from.length()));
        List<String> names = new ArrayList<>();
        Matcher m = SIMPLE_NAME.matcher(part);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    /** Each cited name, with its method or null. */
    private static Map<String, String> citedHBaseNames() {
        Map<String, String> cited = new LinkedHashMap<>();
        Matcher m = HBASE_NAME.matcher(runbooks);
        while (m.find()) {
            cited.put(m.group(1) + (m.group(2) == null ? "" : "#" + m.group(2)), m.group(2));
        }
        return cited;
    }

    /** The class, trying {@code Outer.Inner} as {@code Outer$Inner}; null when HBase has none. */
    private static Class<?> load(String dotted) {
        String name = dotted;
        while (true) {
            try {
                return Class.forName(name, false, RunbookHBaseNamesTest.class.getClassLoader());
            } catch (ClassNotFoundException | LinkageError e) {
                int dot = name.lastIndexOf('.');
                if (dot < 0 || !Character.isUpperCase(name.charAt(name.lastIndexOf('.', dot - 1) + 1))) {
                    return null;
                }
                name = name.substring(0, dot) + "$" + name.substring(dot + 1);
            }
        }
    }

    private static List<Method> methodsNamed(Class<?> type, java.util.function.Predicate<String> name) {
        List<Method> found = new ArrayList<>();
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Method method : c.getDeclaredMethods()) {
                if (name.test(method.getName())) {
                    found.add(method);
                }
            }
        }
        return found;
    }

    private static boolean exampleServerHasMethod(String simpleName, String methodPrefix) throws IOException {
        Path sources = repo.resolve("example-server/src/main/java");
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file : (Iterable<Path>)
                    files.filter(f -> f.getFileName().toString().equals(simpleName + ".java"))::iterator) {
                if (Pattern.compile("\\b" + Pattern.quote(methodPrefix) + "\\w*\\s*\\(")
                        .matcher(Files.readString(file))
                        .find()) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Set<String> hbaseDefaultKeys() throws IOException {
        try (InputStream in = RunbookHBaseNamesTest.class.getClassLoader().getResourceAsStream("hbase-default.xml")) {
            assertTrue(in != null, "hbase-default.xml (hbase-common) on the class path");
            String xml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            Set<String> keys = new TreeSet<>();
            Matcher m = Pattern.compile("<name>([^<]+)</name>").matcher(xml);
            while (m.find()) {
                keys.add(m.group(1).strip());
            }
            return keys;
        }
    }

    private static Set<String> stringConstants(Class<?> type) throws IllegalAccessException {
        Set<String> values = new TreeSet<>();
        for (Field field : type.getDeclaredFields()) {
            int mods = field.getModifiers();
            if (Modifier.isStatic(mods) && Modifier.isFinal(mods) && field.getType() == String.class) {
                field.setAccessible(true);
                Object value = field.get(null);
                if (value != null) {
                    values.add((String) value);
                }
            }
        }
        return values;
    }

    private static String version() {
        return System.getProperty("blockscope.hbase.version", "2.x");
    }
}
