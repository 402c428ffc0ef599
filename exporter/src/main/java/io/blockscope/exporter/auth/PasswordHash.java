package io.blockscope.exporter.auth;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Locale;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * A salted password hash in the one-string form {@code ALGORITHM:[ITERATIONS:]SALT:HASH}, salt and
 * hash in hex, so that it survives any quoting in a {@code -javaagent} argument or a config file:
 *
 * <ul>
 *   <li>{@code pbkdf2-sha256:600000:SALT:HASH} and {@code pbkdf2-sha512:210000:SALT:HASH}
 *       (recommended: deliberately slow);
 *   <li>{@code sha256:SALT:HASH} and {@code sha512:SALT:HASH}: one digest of salt then UTF-8
 *       password (fast, for parity with other exporters; only as strong as the password).
 * </ul>
 *
 * Create one with {@link HashPassword} or {@link #create}.
 */
public final class PasswordHash {

    /** The hash algorithms a password hash may name. */
    public enum Algorithm {
        PBKDF2_SHA256("pbkdf2-sha256", "PBKDF2WithHmacSHA256", 600_000, 32),
        PBKDF2_SHA512("pbkdf2-sha512", "PBKDF2WithHmacSHA512", 210_000, 64),
        SHA256("sha256", "SHA-256", 0, 32),
        SHA512("sha512", "SHA-512", 0, 64);

        private final String label;
        private final String jcaName;
        private final int defaultIterations;
        private final int hashBytes;

        Algorithm(String label, String jcaName, int defaultIterations, int hashBytes) {
            this.label = label;
            this.jcaName = jcaName;
            this.defaultIterations = defaultIterations;
            this.hashBytes = hashBytes;
        }

        /** The name used in the hash string, e.g. {@code pbkdf2-sha256}. */
        public String label() {
            return label;
        }

        boolean iterated() {
            return defaultIterations > 0;
        }

        /** OWASP's 2023 minimum for PBKDF2 with this digest; 0 for the plain digests. */
        public int defaultIterations() {
            return defaultIterations;
        }

        static Algorithm fromLabel(String label) {
            for (Algorithm a : values()) {
                if (a.label.equals(label.toLowerCase(Locale.ROOT))) {
                    return a;
                }
            }
            return null;
        }
    }

    static final String ACCEPTED_FORMS =
            "pbkdf2-sha256:ITERATIONS:SALT_HEX:HASH_HEX, pbkdf2-sha512:ITERATIONS:SALT_HEX:HASH_HEX,"
                    + " sha256:SALT_HEX:HASH_HEX or sha512:SALT_HEX:HASH_HEX";
    private static final int MIN_SALT_BYTES = 8;
    private static final int MAX_ITERATIONS = 10_000_000;
    private static final Hex HEX = new Hex();

    private final Algorithm algorithm;
    private final int iterations;
    private final byte[] salt;
    private final byte[] hash;

    private PasswordHash(Algorithm algorithm, int iterations, byte[] salt, byte[] hash) {
        this.algorithm = algorithm;
        this.iterations = iterations;
        this.salt = salt;
        this.hash = hash;
    }

    /**
     * Parses a hash string.
     *
     * @throws IllegalArgumentException saying what is wrong with it; the message never contains the
     *     hash itself
     */
    public static PasswordHash parse(String spec) {
        String[] parts = spec.trim().split(":", -1);
        Algorithm algorithm = Algorithm.fromLabel(parts[0]);
        if (algorithm == null) {
            throw new IllegalArgumentException(
                    "unknown password hash algorithm '" + parts[0] + "'; expected " + ACCEPTED_FORMS);
        }
        int expectedParts = algorithm.iterated() ? 4 : 3;
        if (parts.length != expectedParts) {
            throw new IllegalArgumentException("a " + algorithm.label + " password hash has " + expectedParts
                    + " ':'-separated parts, got " + parts.length + "; expected " + ACCEPTED_FORMS);
        }
        int iterations = 0;
        if (algorithm.iterated()) {
            try {
                iterations = Integer.parseInt(parts[1]);
            } catch (NumberFormatException e) {
                iterations = -1;
            }
            if (iterations < 1 || iterations > MAX_ITERATIONS) {
                throw new IllegalArgumentException("password hash iterations must be a number from 1 to "
                        + MAX_ITERATIONS + ", got '" + parts[1] + "'");
            }
        }
        byte[] salt = hex(parts[expectedParts - 2], "salt");
        byte[] hash = hex(parts[expectedParts - 1], "hash");
        if (salt.length < MIN_SALT_BYTES) {
            throw new IllegalArgumentException("password hash salt must have at least " + MIN_SALT_BYTES + " bytes ("
                    + 2 * MIN_SALT_BYTES + " hex digits), got " + salt.length);
        }
        if (hash.length != algorithm.hashBytes) {
            throw new IllegalArgumentException("a " + algorithm.label + " hash has " + algorithm.hashBytes + " bytes ("
                    + 2 * algorithm.hashBytes + " hex digits), got " + hash.length);
        }
        return new PasswordHash(algorithm, iterations, salt, hash);
    }

    /** Hashes {@code password} with a fresh random 16-byte salt. */
    public static PasswordHash create(Algorithm algorithm, int iterations, char[] password) {
        if (algorithm.iterated() && (iterations < 1 || iterations > MAX_ITERATIONS)) {
            throw new IllegalArgumentException("iterations must be from 1 to " + MAX_ITERATIONS);
        }
        byte[] salt = new byte[16];
        new SecureRandom().nextBytes(salt);
        int rounds = algorithm.iterated() ? iterations : 0;
        return new PasswordHash(algorithm, rounds, salt, derive(algorithm, rounds, salt, password));
    }

    /** Whether {@code password} hashes to this hash; the comparison takes constant time. */
    public boolean matches(char[] password) {
        return MessageDigest.isEqual(hash, derive(algorithm, iterations, salt, password));
    }

    public Algorithm algorithm() {
        return algorithm;
    }

    /** The one-string form that {@link #parse} reads. */
    @Override
    public String toString() {
        return algorithm.label
                + (algorithm.iterated() ? ":" + iterations : "")
                + ":" + HEX.formatHex(salt)
                + ":" + HEX.formatHex(hash);
    }

    private static byte[] derive(Algorithm algorithm, int iterations, byte[] salt, char[] password) {
        try {
            if (algorithm.iterated()) {
                PBEKeySpec spec = new PBEKeySpec(password, salt, iterations, algorithm.hashBytes * 8);
                try {
                    return SecretKeyFactory.getInstance(algorithm.jcaName)
                            .generateSecret(spec)
                            .getEncoded();
                } finally {
                    spec.clearPassword();
                }
            }
            MessageDigest digest = MessageDigest.getInstance(algorithm.jcaName);
            digest.update(salt);
            ByteBuffer utf8 = StandardCharsets.UTF_8.encode(CharBuffer.wrap(password));
            byte[] bytes = new byte[utf8.remaining()];
            utf8.get(bytes);
            digest.update(bytes);
            Arrays.fill(bytes, (byte) 0);
            return digest.digest();
        } catch (GeneralSecurityException e) {
            // Every JDK ships these algorithms; a JDK without them cannot verify anything.
            throw new IllegalStateException(algorithm.jcaName + " is not available in this JDK", e);
        }
    }

    private static byte[] hex(String digits, String what) {
        try {
            return HEX.parseHex(digits);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("password hash " + what + " must be an even number of hex digits");
        }
    }
}
