package io.blockscope.hbasers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The extra JDK runtimes .ci/jdks.sh installs, from {@code BLOCKSCOPE_TEST_JDKS}
 * ({@code 11=/abs/java-runtime,21=...,25=...}; also read as a system property of that name).
 */
final class TestJdks {

    static final String VARIABLE = "BLOCKSCOPE_TEST_JDKS";

    private TestJdks() {}

    /** The {@code java} executable of feature release {@code feature}, when listed and present. */
    static Optional<Path> java(String feature) {
        String list = System.getProperty(VARIABLE, System.getenv(VARIABLE));
        if (list == null) {
            return Optional.empty();
        }
        for (String entry : list.split(",")) {
            String[] parts = entry.trim().split("=", 2);
            if (parts.length == 2 && parts[0].equals(feature)) {
                Path java = Path.of(parts[1], "bin", "java");
                return Files.isExecutable(java) ? Optional.of(java) : Optional.empty();
            }
        }
        return Optional.empty();
    }
}
