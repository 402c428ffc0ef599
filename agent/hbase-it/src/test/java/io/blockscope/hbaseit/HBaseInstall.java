package io.blockscope.hbaseit;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * One HBase release's jars as the build copied them (target/hbase/VERSION/), and what a JVM running
 * it needs. Tests never put HBase on their own class path: each driver JVM gets one of these.
 */
record HBaseInstall(String version, Path directory) {

    /** The releases under test, from the build ({@code blockscope.hbase.versions}). */
    static List<HBaseInstall> all() {
        String versions = required("blockscope.hbase.versions");
        List<HBaseInstall> installs = new ArrayList<>();
        for (String version : versions.split(",")) {
            installs.add(of(version.trim()));
        }
        return installs;
    }

    static HBaseInstall of(String version) {
        Path directory = Path.of(required("blockscope.hbase.lib"), version);
        if (!Files.isRegularFile(directory.resolve("hbase-server-" + version + ".jar"))) {
            throw new IllegalStateException("HBase " + version + " jars are missing from " + directory
                    + ": run the Maven build of agent/hbase-it (generate-test-resources copies them)");
        }
        return new HBaseInstall(version, directory);
    }

    /** 2.3 and later count references on blocks (HBASE-21879); before, readers call returnBlock. */
    boolean refCounted() {
        return !beforeTwoThree();
    }

    /** 2.0 to 2.2 read and write offheap memory through JDK internals that JDK 17 closes by default. */
    List<String> jvmFlags() {
        if (beforeTwoThree()) {
            return List.of(
                    "--add-opens",
                    "java.base/java.nio=ALL-UNNAMED",
                    "--add-exports",
                    "java.base/sun.nio.ch=ALL-UNNAMED");
        }
        return List.of();
    }

    private boolean beforeTwoThree() {
        return version.startsWith("2.0.") || version.startsWith("2.1.") || version.startsWith("2.2.");
    }

    /** Every jar of this release's standalone class path. */
    String classPath() {
        return join(jars().toList());
    }

    /** The class path of a JVM with hbase-common but no hbase-server: a client, a tool. */
    String classPathWithoutServer() {
        return join(jars().filter(jar -> !jar.getFileName().toString().startsWith("hbase-server-"))
                .toList());
    }

    private Stream<Path> jars() {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(f -> f.toString().endsWith(".jar")).sorted().toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String join(List<Path> jars) {
        return String.join(File.pathSeparator, jars.stream().map(Path::toString).toArray(String[]::new));
    }

    static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + property + " is not set: run these tests through"
                    + " Maven (mvn -f agent/hbase-it/pom.xml verify), which sets it");
        }
        return value;
    }

    @Override
    public String toString() {
        return "HBase " + version;
    }
}
