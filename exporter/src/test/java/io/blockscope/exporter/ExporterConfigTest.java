package io.blockscope.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.exporter.auth.PasswordHash;
import io.blockscope.exporter.gc.GcMonitoring;
import io.blockscope.exporter.testing.TestCertificates;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExporterConfigTest {

    @TempDir
    static Path dir;

    private static TestCertificates certs;

    @BeforeAll
    static void certificates() throws Exception {
        certs = TestCertificates.generate(dir, "server");
    }

    @Test
    void hostAndPortForms() {
        ExporterConfig portOnly = ExporterConfig.parse("9404", Map.of());
        assertNull(portOnly.host());
        assertEquals(9404, portOnly.port());
        assertEquals("127.0.0.1", ExporterConfig.parse("127.0.0.1:0", Map.of()).host());
        assertEquals("::1", ExporterConfig.parse("[::1]:9404", Map.of()).host());
        assertNull(ExporterConfig.parse(":9404", Map.of()).host());
        assertNull(ExporterConfig.parse("*:9404", Map.of()).host());
        assertEquals(
                "metrics.example",
                ExporterConfig.parse("metrics.example:1", Map.of()).host());
    }

    @Test
    void defaults() {
        ExporterConfig c = ExporterConfig.parse("0", null);
        assertEquals(ExporterConfig.DEFAULT_THREADS, c.threads());
        assertTrue(c.jfrEnabled());
        assertNull(c.tls());
        assertNull(c.credentials());
        assertEquals(GcMonitoring.Source.JFR, c.gcSource());
        assertTrue(c.jvmMetrics());
        assertEquals("http://*:0 threads=4 gc.source=jfr", c.toString());
    }

    @Test
    void gcSourceAndJvmMetricsSwitches() {
        assertEquals(
                GcMonitoring.Source.MXBEAN,
                ExporterConfig.parse("0", Map.of("gc.source", "MXBean")).gcSource());
        ExporterConfig off = ExporterConfig.parse("0", Map.of("gc.source", "off", "jvm.metrics", "off"));
        assertEquals(GcMonitoring.Source.OFF, off.gcSource());
        assertFalse(off.jfrEnabled());
        assertFalse(off.jvmMetrics());
        assertEquals("http://*:0 threads=4 gc.source=off jvm.metrics=off", off.toString());
        assertEquals(
                GcMonitoring.Source.JFR,
                ExporterConfig.parse("0", Map.of("gc.source", " jfr ")).gcSource());
        assertEquals(
                GcMonitoring.Source.MXBEAN,
                ExporterConfig.parse("0", Map.of("jfr", "off")).gcSource(),
                "jfr=off keeps meaning the MXBeans");
        assertTrue(ExporterConfig.parse("0", Map.of("jvm.metrics", "on")).jvmMetrics());

        assertMessage(
                "bad gc.source='jmx': give jfr (JFR events, falling back to the GC MXBeans), mxbean (GC MXBean"
                        + " notifications) or off",
                () -> ExporterConfig.parse("0", Map.of("gc.source", "jmx")));
        assertMessage(
                "both gc.source and jfr are set: give gc.source only (jfr=off is the older spelling of"
                        + " gc.source=mxbean)",
                () -> ExporterConfig.parse("0", Map.of("gc.source", "jfr", "jfr", "off")));
        assertMessage(
                "bad jvm.metrics='no': give on or off (default on)",
                () -> ExporterConfig.parse("0", Map.of("jvm.metrics", "no")));
        assertMessage(
                "unknown option 'jvm.metric'; the jvm.* options are jvm.metrics",
                () -> ExporterConfig.parse("0", Map.of("jvm.metric", "off")));
        assertMessage(
                "unknown option 'gc.sources'; the gc.* options are gc.source",
                () -> ExporterConfig.parse("0", Map.of("gc.sources", "off")));
        assertTrue(ExporterConfig.optionNames().containsAll(java.util.Set.of("gc.source", "jvm.metrics")));
    }

    @Test
    void badAddressesNameTheProblem() {
        assertMessage("no port given", () -> ExporterConfig.parse(" ", Map.of()));
        assertMessage("bad port 'abc'", () -> ExporterConfig.parse("abc", Map.of()));
        assertMessage(
                "bad port '70000': give a number from 0 to 65535", () -> ExporterConfig.parse("host:70000", Map.of()));
        assertMessage("put an IPv6 host in brackets", () -> ExporterConfig.parse("::1:9404", Map.of()));
    }

    @Test
    void threadsAndJfrAreChecked() {
        assertEquals(8, ExporterConfig.parse("0", Map.of("threads", "8")).threads());
        assertFalse(ExporterConfig.parse("0", Map.of("jfr", "OFF")).jfrEnabled());
        assertMessage(
                "bad threads='1': give a number from 2 to 32 (default 4)",
                () -> ExporterConfig.parse("0", Map.of("threads", "1")));
        assertMessage("bad threads='many'", () -> ExporterConfig.parse("0", Map.of("threads", "many")));
        assertMessage(
                "bad jfr='maybe': give on or off (default on)",
                () -> ExporterConfig.parse("0", Map.of("jfr", "maybe")));
    }

    @Test
    void foreignKeysAreLeftToTheCallerButTyposInOurNamespacesAreNot() {
        assertNotNull(ExporterConfig.parse("0", Map.of("profile", "hbase", "sampling", "128")));
        assertMessage(
                "unknown option 'tls.keystor'; the tls.* options are tls.cert, tls.client.ca, tls.key, tls.keystore, tls.keystore.password",
                () -> ExporterConfig.parse("0", Map.of("tls.keystor", "x")));
        assertMessage("unknown option 'auth.pasword'", () -> ExporterConfig.parse("0", Map.of("auth.pasword", "x")));
        assertTrue(ExporterConfig.optionNames()
                .containsAll(java.util.Set.of(
                        "threads",
                        "jfr",
                        "tls.keystore",
                        "tls.keystore.password",
                        "tls.cert",
                        "tls.key",
                        "tls.client.ca",
                        "auth.user",
                        "auth.password.hash",
                        "auth.password",
                        "auth.plaintext")));
    }

    @Test
    void tlsFromPkcs12OrPem() {
        ExporterConfig p12 = ExporterConfig.parse(
                "0",
                Map.of(
                        "tls.keystore",
                        certs.keystore().toString(),
                        "tls.keystore.password",
                        TestCertificates.PASSWORD));
        assertNotNull(p12.tls());
        assertTrue(p12.toString().startsWith("https://"));
        ExporterConfig pem = ExporterConfig.parse(
                "0",
                Map.of(
                        "tls.cert",
                        certs.certPem().toString(),
                        "tls.key",
                        certs.keyPem().toString(),
                        "tls.client.ca",
                        certs.certPem().toString()));
        assertNotNull(pem.tls().clientTrustStore());
        assertTrue(pem.toString().contains("client-certificates=required"), pem.toString());
    }

    @Test
    void badTlsConfigurationNamesTheProblem() throws Exception {
        assertMessage(
                "cannot be opened with tls.keystore.password: wrong password?",
                () -> ExporterConfig.parse(
                        "0", Map.of("tls.keystore", certs.keystore().toString(), "tls.keystore.password", "wrong")));
        assertMessage(
                "is not a readable file",
                () -> ExporterConfig.parse(
                        "0", Map.of("tls.keystore", dir.resolve("missing.p12").toString())));
        assertMessage(
                "tls.cert and tls.key go together",
                () -> ExporterConfig.parse(
                        "0", Map.of("tls.cert", certs.certPem().toString())));
        assertMessage(
                "give either tls.keystore (PKCS12) or tls.cert + tls.key (PEM), not both",
                () -> ExporterConfig.parse(
                        "0",
                        Map.of(
                                "tls.keystore",
                                certs.keystore().toString(),
                                "tls.cert",
                                certs.certPem().toString())));
        assertMessage(
                "tls.client.ca needs TLS",
                () -> ExporterConfig.parse(
                        "0", Map.of("tls.client.ca", certs.certPem().toString())));
        assertMessage(
                "tls.keystore.password is set but tls.keystore is not",
                () -> ExporterConfig.parse("0", Map.of("tls.keystore.password", "x")));
        assertMessage(
                "has no '-----BEGIN CERTIFICATE-----' block",
                () -> ExporterConfig.parse(
                        "0",
                        Map.of(
                                "tls.cert",
                                certs.keyPem().toString(),
                                "tls.key",
                                certs.keyPem().toString())));

        Path pkcs1 = dir.resolve("rsa.key.pem");
        Files.writeString(pkcs1, "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n");
        assertMessage(
                "openssl pkcs8 -topk8 -nocrypt",
                () -> ExporterConfig.parse(
                        "0", Map.of("tls.cert", certs.certPem().toString(), "tls.key", pkcs1.toString())));
        Path encrypted = dir.resolve("enc.key.pem");
        Files.writeString(
                encrypted, "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n");
        assertMessage(
                "holds an encrypted key",
                () -> ExporterConfig.parse(
                        "0", Map.of("tls.cert", certs.certPem().toString(), "tls.key", encrypted.toString())));
        assertMessage(
                "option tls.key is empty",
                () -> ExporterConfig.parse(
                        "0", Map.of("tls.cert", certs.certPem().toString(), "tls.key", " ")));
    }

    @Test
    void basicAuthNeedsAHashUnlessPlaintextIsChosen() {
        String hash = PasswordHash.create(PasswordHash.Algorithm.PBKDF2_SHA256, 1000, "s3cret".toCharArray())
                .toString();
        ExporterConfig hashed = ExporterConfig.parse("0", Map.of("auth.user", "prom", "auth.password.hash", hash));
        assertTrue(hashed.credentials().matches("prom", "s3cret"));
        assertFalse(hashed.credentials().matches("prom", "S3cret"));
        assertFalse(hashed.toString().contains(hash), "the summary must not show the hash");

        assertMessage(
                "auth.password keeps the password in plaintext: use auth.password.hash",
                () -> ExporterConfig.parse("0", Map.of("auth.user", "prom", "auth.password", "s3cret")));
        Map<String, String> plaintext =
                new HashMap<>(Map.of("auth.user", "prom", "auth.password", "s3cret", "auth.plaintext", "true"));
        ExporterConfig chosen = ExporterConfig.parse("0", plaintext);
        assertTrue(chosen.credentials().matches("prom", "s3cret"));
        assertFalse(chosen.toString().contains("s3cret"), chosen.toString());

        assertMessage(
                "a password is set but auth.user is not",
                () -> ExporterConfig.parse("0", Map.of("auth.password.hash", hash)));
        assertMessage(
                "auth.user needs auth.password.hash", () -> ExporterConfig.parse("0", Map.of("auth.user", "prom")));
        assertMessage(
                "give either auth.password.hash or auth.password, not both",
                () -> ExporterConfig.parse(
                        "0", Map.of("auth.user", "prom", "auth.password.hash", hash, "auth.password", "x")));
        assertMessage(
                "auth.user must not contain ':'",
                () -> ExporterConfig.parse("0", Map.of("auth.user", "a:b", "auth.password.hash", hash)));
        assertMessage(
                "bad auth.password.hash: unknown password hash algorithm 'md5'",
                () -> ExporterConfig.parse("0", Map.of("auth.user", "prom", "auth.password.hash", "md5:00:00")));
        assertMessage(
                "bad auth.plaintext='yes please'",
                () -> ExporterConfig.parse(
                        "0", Map.of("auth.user", "prom", "auth.password", "x", "auth.plaintext", "yes please")));
    }

    private static void assertMessage(String expectedPart, org.junit.jupiter.api.function.Executable parse) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, parse);
        assertTrue(e.getMessage().contains(expectedPart), "message was: " + e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
    }
}
