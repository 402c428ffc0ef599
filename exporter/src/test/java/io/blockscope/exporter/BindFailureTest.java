package io.blockscope.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.exporter.gc.GcMonitoring;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** A taken port must cost the host nothing but one clear log line. */
class BindFailureTest {

    @Test
    void takenPortIsLoggedOnceAndTheHandleStillWorks() throws Exception {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream originalErr = System.err;
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            ExporterConfig config = ExporterConfig.builder()
                    .host("127.0.0.1")
                    .port(taken.getLocalPort())
                    .gcSource(GcMonitoring.Source.MXBEAN)
                    .build();
            try (Exporter first = Exporter.start(config);
                    Exporter second = Exporter.start(config)) {
                for (Exporter e : new Exporter[] {first, second}) {
                    assertFalse(e.isServing());
                    assertEquals(-1, e.port());
                    // Registration keeps working: the agent registers its collectors regardless.
                    Counter counter =
                            Counter.builder().name("test_events").help("test").register(e.registry());
                    counter.inc();
                    CounterSnapshot snapshot = (CounterSnapshot) e.registry().scrape().stream()
                            .filter(s -> s.getMetadata().getName().equals("test_events"))
                            .findFirst()
                            .orElseThrow();
                    assertEquals(1.0, snapshot.getDataPoints().get(0).getValue());
                }
            }
        } finally {
            System.setErr(originalErr);
        }
        String[] warnings = Arrays.stream(
                        captured.toString(StandardCharsets.UTF_8).split("\n"))
                .filter(l -> l.startsWith("[blockscope] WARN"))
                .toArray(String[]::new);
        assertEquals(1, warnings.length, "exactly one warning for two attempts: " + String.join("\n", warnings));
        assertTrue(warnings[0].contains("cannot serve metrics on http://127.0.0.1:"), warnings[0]);
        assertTrue(warnings[0].contains("the port is taken"), warnings[0]);
        assertTrue(warnings[0].contains("choose a free port"), warnings[0]);
        assertTrue(warnings[0].contains("Address already in use"), warnings[0]);
    }

    @Test
    void unresolvableHostIsLoggedAndTheHandleStillWorks() {
        try (Exporter e = Exporter.start(ExporterConfig.builder()
                .host("no-such-host.invalid")
                .port(0)
                .gcSource(GcMonitoring.Source.MXBEAN)
                .build())) {
            assertFalse(e.isServing());
            assertTrue(e.registry().scrape().size() > 0, "JVM and GC metrics are still collected");
        }
    }

    @Test
    void nullConfigIsLoggedNotThrown() {
        try (Exporter e = Exporter.start(null)) {
            assertFalse(e.isServing());
        }
    }
}
