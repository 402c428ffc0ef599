package io.blockscope.exporter.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** The one user allowed to scrape, and how its password is checked. */
public final class Credentials {

    private final String user;
    private final PasswordHash hash;
    private final byte[] plaintext;

    private Credentials(String user, PasswordHash hash, byte[] plaintext) {
        this.user = user;
        this.hash = hash;
        this.plaintext = plaintext;
    }

    public static Credentials hashed(String user, PasswordHash hash) {
        return new Credentials(user, hash, null);
    }

    /** A password kept as given: only for setups whose operator explicitly opted in. */
    public static Credentials plaintext(String user, String password) {
        return new Credentials(user, null, password.getBytes(StandardCharsets.UTF_8));
    }

    public String user() {
        return user;
    }

    /**
     * Whether the pair is the configured one. Both parts are always checked, each in time that does
     * not depend on where they differ, so a caller learns nothing from how long a refusal takes
     * beyond the (slow, by design) hash.
     */
    public boolean matches(String candidateUser, String candidatePassword) {
        boolean userOk = MessageDigest.isEqual(
                user.getBytes(StandardCharsets.UTF_8), candidateUser.getBytes(StandardCharsets.UTF_8));
        boolean passwordOk = hash != null
                ? hash.matches(candidatePassword.toCharArray())
                : MessageDigest.isEqual(plaintext, candidatePassword.getBytes(StandardCharsets.UTF_8));
        return bothChecked(userOk, passwordOk);
    }

    @SuppressWarnings("ShortCircuitBoolean") // both parts were checked already; '&' says no early exit is wanted
    private static boolean bothChecked(boolean userOk, boolean passwordOk) {
        return userOk & passwordOk;
    }

    @Override
    public String toString() {
        return "Credentials[user=" + user + ", password="
                + (hash != null ? hash.algorithm().label() : "plaintext") + "]";
    }
}
