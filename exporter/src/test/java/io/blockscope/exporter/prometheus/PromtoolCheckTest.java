package io.blockscope.exporter.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.exporter.Exporter;
import io.blockscope.exporter.ExporterConfig;
import io.blockscope.exporter.testing.ForcedGc;
import io.blockscope.exporter.testing.Http;
import io.blockscope.testsupport.Scrape;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code promtool check metrics} lints a full scrape: names, units, suffixes, help texts. */
class PromtoolCheckTest {

    private static final Path PROMTOOL = Path.of("/usr/bin/promtool");

    @Test
    void promtoolFindsNothingToComplainAbout() throws Exception {
        assertTrue(
                Files.isExecutable(PROMTOOL),
                PROMTOOL + " is missing: install Debian's prometheus package"
                        + " (apt-get install -y --no-install-recommends prometheus), as .ci/test does");
        byte[] scrape;
        try (Exporter exporter = Exporter.start(ExporterConfig.parse("127.0.0.1:0", Map.of()))) {
            // so that the GC histograms have series to lint
            ForcedGc.until(
                    () -> Scrape.of(exporter.port()).sum("blockscope_gc_pause_seconds_count") > 0,
                    "no GC pause reached the exporter",
                    Duration.ofSeconds(20));
            scrape = Http.get(URI.create("http://127.0.0.1:" + exporter.port() + "/metrics"))
                    .body();
        }
        String text = new String(scrape, StandardCharsets.UTF_8);
        for (String family : new String[] {
            "blockscope_gc_pause_seconds",
            "blockscope_gc_collections_total",
            "blockscope_gc_heap_used_before_bytes",
            "blockscope_gc_heap_used_after_bytes",
            "blockscope_allocated_bytes_total",
            "blockscope_gc_source_info",
            "blockscope_jfr_data_loss_bytes_total",
            "blockscope_jfr_event_lag_seconds",
            "blockscope_scrape_duration_seconds",
            "blockscope_exporter_build_info",
            "jvm_memory_used_bytes"
        }) {
            assertTrue(text.contains("# TYPE " + family + " "), "the linted scrape has " + family);
        }

        Process promtool = new ProcessBuilder(PROMTOOL.toString(), "check", "metrics")
                .redirectErrorStream(true)
                .start();
        promtool.getOutputStream().write(scrape);
        promtool.getOutputStream().close();
        String findings = new String(promtool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(promtool.waitFor(30, TimeUnit.SECONDS));
        assertEquals("", findings.trim(), "promtool findings");
        assertEquals(0, promtool.exitValue(), findings);
    }
}
