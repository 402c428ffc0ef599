package io.blockscope.exporter.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/** The two JDKs the exporter must work on: 17 (the build JDK) and Temurin 25. */
public final class Jdks {

    /** Where CI (and every developer machine) has Temurin 25. */
    public static final Path JDK25_JAVA = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");

    private Jdks() {}

    /** The {@code java} of the JDK running the tests (17 in the build). */
    public static Path current() {
        return Path.of(System.getProperty("java.home"), "bin", "java");
    }

    /** Temurin 25's {@code java}; fails (never skips) when it is missing, since CI has it. */
    public static Path jdk25() {
        if (!Files.isExecutable(JDK25_JAVA)) {
            throw new AssertionError(
                    JDK25_JAVA + " is missing: the GC tests must also run on JDK 25. Install Temurin 25"
                            + " (package temurin-25-jdk) as CI does.");
        }
        return JDK25_JAVA;
    }
}
