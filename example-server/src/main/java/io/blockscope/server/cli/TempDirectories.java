package io.blockscope.server.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Cleanup of the temporary data directories the commands create. */
final class TempDirectories {

    private TempDirectories() {}

    /** Deletes a directory tree; failures are reported, not thrown (this runs at exit). */
    static void deleteRecursively(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    System.err.println("[blockscope] could not delete " + p + ": " + e.getMessage());
                }
            });
        } catch (IOException e) {
            System.err.println("[blockscope] could not delete " + root + ": " + e.getMessage());
        }
    }
}
