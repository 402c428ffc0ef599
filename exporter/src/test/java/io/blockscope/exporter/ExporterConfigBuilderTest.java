package io.blockscope.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.exporter.auth.Credentials;
import io.blockscope.exporter.auth.PasswordHash;
import io.blockscope.exporter.gc.GcMonitoring;
import io.blockscope.exporter.testing.TestCertificates;
import io.blockscope.exporter.tls.TlsMaterial;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** The builder: its defaults are parse's, every value reaches the config, and build() rejects bad values by name. */
class ExporterConfigBuilderTest {

    @TempDir
    Path dir;

    @Test
    void defaultsAreTheSameAsParsingNoOptions() {
        ExporterConfig built = ExporterConfig.builder().port(9404).build();
        assertNull(built.host());
        assertEquals(9404, built.port());
        assertEquals(ExporterConfig.DEFAULT_THREADS, built.threads());
        assertEquals(GcMonitoring.Source.JFR, built.gcSource());
        assertTrue(built.jvmMetrics());
        assertNull(built.tls());
        assertNull(built.credentials());
        assertEquals(ExporterConfig.parse("9404", Map.of()).toString(), built.toString());
    }

    @Test
    void everyValueReachesTheConfig() throws Exception {
        TestCertificates certs = TestCertificates.generate(dir, "server");
        TlsMaterial tls = TlsMaterial.pem(certs.certPem(), certs.keyPem());
        Credentials credentials = Credentials.hashed(
                "prom", PasswordHash.create(PasswordHash.Algorithm.PBKDF2_SHA256, 1000, "s3cret".toCharArray()));
        ExporterConfig built = ExporterConfig.builder()
                .host("::1")
                .port(65535)
                .threads(32)
                .gcSource(GcMonitoring.Source.OFF)
                .jvmMetrics(false)
                .tls(tls)
                .credentials(credentials)
                .build();
        assertEquals("::1", built.host());
        assertEquals(65535, built.port());
        assertEquals(32, built.threads());
        assertEquals(GcMonitoring.Source.OFF, built.gcSource());
        assertFalse(built.jfrEnabled());
        assertFalse(built.jvmMetrics());
        assertSame(tls, built.tls());
        assertSame(credentials, built.credentials());
        assertEquals(
                "https://::1:65535 threads=32 gc.source=off jvm.metrics=off auth=" + credentials, built.toString());
    }

    @Test
    void theSameSettingsBuiltOrParsedGiveTheSameConfig() {
        ExporterConfig parsed = ExporterConfig.parse(
                "127.0.0.1:9404", Map.of("threads", "8", "gc.source", "mxbean", "jvm.metrics", "off"));
        ExporterConfig built = ExporterConfig.builder()
                .host("127.0.0.1")
                .port(9404)
                .threads(8)
                .gcSource(GcMonitoring.Source.MXBEAN)
                .jvmMetrics(false)
                .build();
        assertEquals(parsed.toString(), built.toString());
        assertEquals(parsed.host(), built.host());
    }

    @Test
    void thePortIsRequiredAndMustBeBindable() {
        assertMessage(
                "no port given: call port(int) with 0 to 65535",
                () -> ExporterConfig.builder().build());
        assertMessage(
                "bad port '-1': give a number from 0 to 65535",
                () -> ExporterConfig.builder().port(-1).build());
        assertMessage(
                "bad port '65536': give a number from 0 to 65535",
                () -> ExporterConfig.builder().port(65536).build());
        assertEquals(0, ExporterConfig.builder().port(0).build().port(), "0 picks a free port when started");
    }

    @Test
    void threadsMustBeWithinTheHttpPoolsBounds() {
        assertMessage(
                "bad threads='1': give a number from 2 to 32 (default 4)",
                () -> ExporterConfig.builder().port(0).threads(1).build());
        assertMessage(
                "bad threads='33': give a number from 2 to 32",
                () -> ExporterConfig.builder().port(0).threads(33).build());
        assertEquals(2, ExporterConfig.builder().port(0).threads(2).build().threads());
    }

    @Test
    void aGcSourceMustBeChosenAndAHostGivenWithoutBrackets() {
        assertMessage(
                "no gc.source given: give JFR, MXBEAN or OFF",
                () -> ExporterConfig.builder().port(0).gcSource(null).build());
        assertMessage(
                "bad host '[::1]': give an IPv6 address without brackets",
                () -> ExporterConfig.builder().host("[::1]").port(0).build());
    }

    @Test
    void theBuilderChecksOnlyAtBuildSoTheLastValueSetCounts() {
        ExporterConfig.Builder builder = ExporterConfig.builder().port(70000).threads(0);
        builder.port(9404).threads(4);
        assertEquals(9404, builder.build().port());
    }

    private static void assertMessage(String expectedPart, Executable build) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, build);
        assertTrue(e.getMessage().contains(expectedPart), "message was: " + e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
    }
}
