package io.blockscope.exporter.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.exporter.ExporterConfig;
import io.blockscope.exporter.auth.PasswordHash;
import io.blockscope.exporter.testing.RawHttp;
import io.blockscope.exporter.testing.TestCertificates;
import io.blockscope.testsupport.Command;
import io.blockscope.testsupport.JavaCommand;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18, finding 6: secrets come from a file or an environment variable and never show up in a
 * log line, a system property or an error message of the host; a TLS key that does not fit its
 * certificate, and files that cannot be read, are refused at start with a line that names them.
 */
class SecretsTest {

    private static final String PASSWORD = "Tr0ub4dor&3-horse";

    @TempDir
    static Path dir;

    private static String hash;
    private static TestCertificates one;
    private static TestCertificates two;

    @BeforeAll
    static void setUp() throws Exception {
        hash = PasswordHash.create(PasswordHash.Algorithm.PBKDF2_SHA256, 10_000, PASSWORD.toCharArray())
                .toString();
        one = TestCertificates.generate(dir, "one");
        two = TestCertificates.generate(dir, "two");
    }

    private static String basic(String password) {
        return "Basic "
                + Base64.getEncoder().encodeToString(("prometheus:" + password).getBytes(StandardCharsets.UTF_8));
    }

    private static int scrape(HostProcess host, String password) throws Exception {
        return RawHttp.send(
                        "127.0.0.1",
                        host.port(),
                        RawHttp.bytes("GET /metrics HTTP/1.1\r\nHost: x\r\nAuthorization: " + basic(password)
                                + "\r\nConnection: close\r\n\r\n"),
                        10_000)
                .status;
    }

    /** The secret, and each part of its hash, must be nowhere in what the host printed. */
    private static void assertNoSecretIn(HostProcess host) {
        String everything = host.stdout() + "\n" + host.stderr();
        assertTrue(everything.contains("property java.version="), "the host dumped its system properties");
        for (String secret : secretParts()) {
            assertFalse(everything.contains(secret), "the host printed a secret (" + secret.length() + " chars)");
        }
    }

    private static List<String> secretParts() {
        String[] parts = hash.split(":");
        return List.of(PASSWORD, hash, parts[2], parts[3], TestCertificates.PASSWORD);
    }

    @Test
    void hashFromAFileServesAndLeaksNothing() throws Exception {
        Path file = dir.resolve("scrape-password.hash");
        Files.writeString(file, hash + "\n");
        try (HostProcess host = HostProcess.start(
                Map.of(), List.of(), "auth.user=prometheus", "auth.password.file=" + file, "jfr=off")) {
            assertEquals(200, scrape(host, PASSWORD), host.toString());
            assertEquals(401, scrape(host, PASSWORD + "x"));
            assertNoSecretIn(host);
        }
    }

    @Test
    void hashFromTheEnvironmentServesAndLeaksNothing() throws Exception {
        try (HostProcess host = HostProcess.start(
                Map.of("SCRAPE_PASSWORD_HASH", hash),
                List.of(),
                "auth.user=prometheus",
                "auth.password.env=SCRAPE_PASSWORD_HASH",
                "jfr=off")) {
            assertEquals(200, scrape(host, PASSWORD), host.toString());
            assertNoSecretIn(host);
        }
    }

    @Test
    void plaintextAndKeystorePasswordFromFilesLeakNothing() throws Exception {
        Path password = dir.resolve("scrape-password");
        Files.writeString(password, PASSWORD + "\n");
        Path storePassword = dir.resolve("keystore-password");
        Files.writeString(storePassword, TestCertificates.PASSWORD);
        try (HostProcess host = HostProcess.start(
                Map.of(),
                List.of(),
                "auth.user=prometheus",
                "auth.password.file=" + password,
                "auth.plaintext=true",
                "tls.keystore=" + one.keystore(),
                "tls.keystore.password.file=" + storePassword,
                "jfr=off")) {
            assertTrue(host.stdout().contains("serving true"), host.toString());
            assertNoSecretIn(host);
        }
    }

    @Test
    void aPasswordWhereAHashBelongsIsRefusedWithoutBeingEchoed() throws Exception {
        Path file = dir.resolve("not-a-hash");
        Files.writeString(file, PASSWORD + "\n");
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> ExporterConfig.parse(
                        "127.0.0.1:0", Map.of("auth.user", "prometheus", "auth.password.file", file.toString())));
        assertTrue(e.getMessage().contains("auth.password.file holds no password hash"), e.getMessage());
        assertFalse(e.getMessage().contains(PASSWORD), e.getMessage());
        IllegalArgumentException unset = assertThrows(
                IllegalArgumentException.class,
                () -> ExporterConfig.parse(
                        "127.0.0.1:0",
                        Map.of("auth.user", "prometheus", "auth.password.env", "BLOCKSCOPE_TEST_NO_SUCH_VARIABLE")));
        assertTrue(unset.getMessage().contains("'BLOCKSCOPE_TEST_NO_SUCH_VARIABLE', which is not set"));
    }

    @Test
    void aKeyThatDoesNotMatchItsCertificateIsRefusedAtStart() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> ExporterConfig.parse(
                        "127.0.0.1:0",
                        Map.of(
                                "tls.cert",
                                one.certPem().toString(),
                                "tls.key",
                                two.keyPem().toString())));
        assertTrue(e.getMessage().contains("does not match the certificate in tls.cert"), e.getMessage());
        assertTrue(e.getMessage().contains(two.keyPem().toString()), e.getMessage());
    }

    @Test
    void unreadableFilesAreRefusedAtStartNamingThem() {
        Path missing = dir.resolve("missing.pem");
        for (Map<String, String> options : List.of(
                Map.of("tls.cert", missing.toString(), "tls.key", one.keyPem().toString()),
                Map.of("tls.cert", one.certPem().toString(), "tls.key", dir.toString()),
                Map.of("auth.user", "u", "auth.password.file", missing.toString()),
                Map.of("tls.keystore", one.keystore().toString(), "tls.keystore.password.file", missing.toString()))) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> ExporterConfig.parse("127.0.0.1:0", options));
            assertTrue(e.getMessage().contains("is not a readable file"), options + ": " + e.getMessage());
        }
    }

    @Test
    void aHostGivenAMismatchedPairSaysSoInOneLineAndServesNoTls() throws Exception {
        // SecuredHost lets the refusal escape its main, as a host without the agent's guard would: the
        // line is the JVM's report of the exception; it must name both files and hold no key material.
        String output = Command.run(
                        JavaCommand.onTestJvm()
                                .classPath(System.getProperty("java.class.path"))
                                .main(
                                        SecuredHost.class.getName(),
                                        "host.lifetime-s=5",
                                        "tls.cert=" + one.certPem(),
                                        "tls.key=" + two.keyPem())
                                .command(),
                        null,
                        Duration.ofSeconds(60))
                .output();
        assertTrue(output.contains("does not match the certificate"), output);
        assertFalse(output.contains("exporter port"), output);
        assertFalse(output.contains("BEGIN PRIVATE KEY"), output);
        String key = Files.readString(two.keyPem());
        String base64Line =
                key.lines().filter(l -> !l.startsWith("-----")).findFirst().orElseThrow();
        assertFalse(output.contains(base64Line), "key material in the output");
    }
}
