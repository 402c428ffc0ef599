package io.blockscope.dashboards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

/** Where the Thanos test finds its binary, and that CI can never skip it. */
class ThanosTest {

    @Test
    void withoutTheVariableTheThanosTestIsSkippedLocallySayingHowToGetIt() {
        TestAbortedException skipped = assertThrows(TestAbortedException.class, () -> Thanos.binary(Map.of()));
        assertTrue(skipped.getMessage().contains(".ci/thanos.sh"), skipped.getMessage());
    }

    @Test
    void withoutTheVariableOnCiTheThanosTestFails() {
        IllegalStateException failed =
                assertThrows(IllegalStateException.class, () -> Thanos.binary(Map.of("CI", "true")));
        assertTrue(failed.getMessage().contains("CI=true"), failed.getMessage());
        assertTrue(failed.getMessage().contains(Thanos.VARIABLE), failed.getMessage());
    }

    @Test
    void aVariableNamingNoExecutableIsAnError(@TempDir Path dir) throws Exception {
        Path notExecutable = Files.writeString(dir.resolve("thanos"), "");
        IllegalStateException failed = assertThrows(
                IllegalStateException.class, () -> Thanos.binary(Map.of(Thanos.VARIABLE, notExecutable.toString())));
        assertTrue(failed.getMessage().contains("is not an executable"), failed.getMessage());
    }

    @Test
    void aVariableNamingAnExecutableIsIt(@TempDir Path dir) throws Exception {
        Path binary = Files.writeString(dir.resolve("thanos"), "#!/bin/sh\n");
        assertTrue(binary.toFile().setExecutable(true));
        assertEquals(binary, Thanos.binary(Map.of(Thanos.VARIABLE, binary.toString())));
    }
}
