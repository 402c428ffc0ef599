package io.blockscope.dashboards;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

/** Where the Prometheus 3 tests find their binaries, and that CI can never skip them. */
class PrometheusVersionTest {

    @Test
    void withoutTheVariableAPrometheus3TestIsSkippedLocallySayingHowToGetIt() {
        TestAbortedException skipped =
                assertThrows(TestAbortedException.class, () -> PrometheusVersion.V3.binary("promtool", Map.of()));
        assertTrue(skipped.getMessage().contains(".ci/prometheus3.sh"), skipped.getMessage());
    }

    @Test
    void withoutTheVariableOnCiAPrometheus3TestFails() {
        IllegalStateException failed = assertThrows(
                IllegalStateException.class, () -> PrometheusVersion.V3.binary("promtool", Map.of("CI", "true")));
        assertTrue(failed.getMessage().contains("CI=true"), failed.getMessage());
        assertTrue(failed.getMessage().contains(PrometheusVersion.V3_VARIABLE), failed.getMessage());
    }

    @Test
    void aVariableNamingAFolderWithoutTheBinaryIsAnError(@TempDir Path dir) {
        IllegalStateException failed = assertThrows(
                IllegalStateException.class,
                () -> PrometheusVersion.V3.binary("promtool", Map.of(PrometheusVersion.V3_VARIABLE, dir.toString())));
        assertTrue(failed.getMessage().contains("has no executable promtool"), failed.getMessage());
    }

    @Test
    void theVariableNamesTheFolderOfBothBinaries(@TempDir Path dir) throws IOException {
        for (String name : new String[] {"prometheus", "promtool"}) {
            Path binary = Files.createFile(dir.resolve(name));
            assertTrue(binary.toFile().setExecutable(true));
            assertEquals(
                    binary, PrometheusVersion.V3.binary(name, Map.of(PrometheusVersion.V3_VARIABLE, dir.toString())));
        }
    }

    @Test
    void onlyTrueOrOneMeansCi() {
        assertTrue(PrometheusVersion.onCi("true"));
        assertTrue(PrometheusVersion.onCi("TRUE"));
        assertTrue(PrometheusVersion.onCi("1"));
        assertFalse(PrometheusVersion.onCi(null));
        assertFalse(PrometheusVersion.onCi("false"));
        assertFalse(PrometheusVersion.onCi(""));
    }
}
