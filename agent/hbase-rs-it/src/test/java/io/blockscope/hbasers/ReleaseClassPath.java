package io.blockscope.hbasers;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The whole RegionServer class path of an older HBase release, as the build resolved it (src/releases/). */
final class ReleaseClassPath {

    private ReleaseClassPath() {}

    /** The class path of {@code release}; fails, saying how to get it, when the build did not write it. */
    static String of(String release) throws IOException {
        Path file = Path.of(RegionServerProcess.required("blockscope.hbase.releases.dir"), release + ".classpath");
        assertTrue(Files.isRegularFile(file), file + ": the build writes it (mvn verify, src/releases/)");
        return Files.readString(file).trim();
    }
}
