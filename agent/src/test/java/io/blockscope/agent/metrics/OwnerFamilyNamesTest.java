package io.blockscope.agent.metrics;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.agent.bootstrap.Context;
import io.blockscope.agent.bootstrap.FreshThread;
import io.blockscope.agent.bootstrap.Instances;
import io.blockscope.agent.record.Recorder;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The owner families go out under the names docs/metrics.md gives them: the client appends a unit
 * to a name that does not end in it, so a bytes family named {@code ..._bytes_by_table} with a unit
 * would leave as {@code ..._bytes_by_table_bytes_total}, and the dashboards would read nothing.
 */
class OwnerFamilyNamesTest {

    @Test
    void ownerFamiliesOfSampledCopiesAndFallbacksAreExportedUnderTheirDocumentedNames() throws Exception {
        Hbase2Metrics agent = new Hbase2Metrics(Duration.ofSeconds(60), 20);
        Recorder recorder = agent.recorder;
        Context.configure(4, 4, call -> call);
        agent.attach();
        FreshThread.run(() -> {
            long saved = Context.callStart("alice");
            Context.regionStart("ns:orders", null);
            Instances.heapFallback(0, 4096, true, 256, new Object()); // a pooled size served from the heap
            recorder.copy(0, 0, 100, 1, 100);
            Context.regionEnd();
            Context.restore(saved, null);
        });
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(text, agent.registry.scrape());
        String scrape = text.toString(StandardCharsets.UTF_8);
        assertAll(List.of(
                        "blockscope_copy_site_owner_bytes_total{",
                        "blockscope_allocator_heap_fallbacks_by_table_total{",
                        "blockscope_allocator_heap_fallback_bytes_by_table_total{")
                .stream()
                .map(name -> () -> assertTrue(scrape.contains("\n" + name), name + " in:\n" + scrape)));
    }
}
