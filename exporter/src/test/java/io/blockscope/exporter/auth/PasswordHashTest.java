package io.blockscope.exporter.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.exporter.cli.CommandFailed;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PasswordHashTest {

    @ParameterizedTest
    @EnumSource(PasswordHash.Algorithm.class)
    void roundTripsThroughItsStringForm(PasswordHash.Algorithm algorithm) {
        PasswordHash created = PasswordHash.create(algorithm, 1000, "pässword".toCharArray());
        PasswordHash parsed = PasswordHash.parse(created.toString());
        assertTrue(parsed.matches("pässword".toCharArray()));
        assertFalse(parsed.matches("passwörd".toCharArray()));
        assertFalse(parsed.matches(new char[0]));
        assertEquals(created.toString(), parsed.toString());
        assertTrue(created.toString().startsWith(algorithm.label() + ":"));
    }

    @Test
    void saltedShaIsDigestOfSaltThenPassword() throws Exception {
        // An independent computation: a hash made elsewhere (e.g. by a shell script) must verify.
        byte[] salt = HexFormat.of().parseHex("00112233445566778899aabbccddeeff");
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        sha.update(salt);
        byte[] hash = sha.digest("secret".getBytes(StandardCharsets.UTF_8));
        PasswordHash parsed = PasswordHash.parse("sha256:" + HexFormat.of().formatHex(salt) + ":"
                + HexFormat.of().formatHex(hash));
        assertTrue(parsed.matches("secret".toCharArray()));
    }

    @Test
    void malformedHashesAreRefusedWithAReason() {
        assertMessage("unknown password hash algorithm 'bcrypt'", "bcrypt:10:00:00");
        assertMessage(
                "a pbkdf2-sha256 password hash has 4 ':'-separated parts, got 3",
                "pbkdf2-sha256:00112233445566778899:ab");
        assertMessage(
                "iterations must be a number from 1 to 10000000, got 'x'",
                "pbkdf2-sha256:x:0011223344556677:" + "00".repeat(32));
        assertMessage("salt must have at least 8 bytes", "sha256:0011:" + "00".repeat(32));
        assertMessage(
                "a sha512 hash has 64 bytes (128 hex digits), got 32", "sha512:0011223344556677:" + "00".repeat(32));
        assertMessage("salt must be an even number of hex digits", "sha256:zz11223344556677:" + "00".repeat(32));
    }

    @Test
    void hashPasswordToolPrintsAVerifiableHash() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = HashPassword.run(
                new String[] {"pbkdf2-sha512", "2000"},
                null,
                new BufferedReader(new StringReader("correct horse\n")),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        PasswordHash printed =
                PasswordHash.parse(out.toString(StandardCharsets.UTF_8).trim());
        assertTrue(printed.toString().startsWith("pbkdf2-sha512:2000:"));
        assertTrue(printed.matches("correct horse".toCharArray()));
    }

    @Test
    void hashPasswordToolDefaultsToPbkdf2Sha256AtOwaspIterations() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = HashPassword.run(
                new String[0],
                null,
                new BufferedReader(new StringReader("pw\n")),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertEquals(0, status);
        assertTrue(
                out.toString(StandardCharsets.UTF_8).startsWith("pbkdf2-sha256:600000:"),
                out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void mainFailsByExceptionAndNeverEndsTheJvm() {
        // The tool ships in the agent jar, next to code running in other people's JVMs: a failed main
        // must throw (the java launcher then exits 1), not exit. Ending this JVM would end the test run.
        CommandFailed failed = assertThrows(CommandFailed.class, () -> HashPassword.main(new String[] {"md5"}));
        assertEquals(2, failed.status());
    }

    @Test
    void hashPasswordToolRefusesBadInput() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
        PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertEquals(
                2,
                HashPassword.run(
                        new String[] {"md5"}, null, new BufferedReader(new StringReader("pw\n")), out, errStream));
        assertEquals(
                2,
                HashPassword.run(
                        new String[] {"sha256", "5"},
                        null,
                        new BufferedReader(new StringReader("pw\n")),
                        out,
                        errStream));
        assertEquals(
                1, HashPassword.run(new String[0], null, new BufferedReader(new StringReader("\n")), out, errStream));
        assertEquals(
                1, HashPassword.run(new String[0], null, new BufferedReader(new StringReader("")), out, errStream));
        String messages = err.toString(StandardCharsets.UTF_8);
        assertTrue(messages.contains("unknown algorithm 'md5'"), messages);
        assertTrue(messages.contains("sha256 takes no ITERATIONS"), messages);
        assertTrue(messages.contains("the password is empty"), messages);
        assertTrue(messages.contains("no password on standard input"), messages);
    }

    private static void assertMessage(String expected, String spec) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PasswordHash.parse(spec));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
