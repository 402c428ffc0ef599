package io.blockscope.exporter.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checks an HTTP {@code Authorization} header against the configured credentials; shared by both
 * endpoints (Jetty on JDK 17+, the JDK's own server on 11) so that they accept exactly the same.
 *
 * <p>A PBKDF2 check costs tens to hundreds of milliseconds by design, and Prometheus sends the same
 * header on every scrape; so the SHA-256 of each accepted header is remembered (a handful at most)
 * and a repeat costs one digest. A refused header is never remembered.
 */
public final class BasicAuthorization {

    /** The {@code WWW-Authenticate} value of a 401. */
    public static final String CHALLENGE = "Basic realm=\"blockscope\", charset=\"UTF-8\"";

    private static final int MAX_REMEMBERED = 8;
    private static final Hex HEX = new Hex();

    private final Credentials credentials;
    private final Set<String> accepted = ConcurrentHashMap.newKeySet();

    public BasicAuthorization(Credentials credentials) {
        this.credentials = credentials;
    }

    /** Whether {@code header} (null when absent) carries the configured user and password. */
    public boolean authorized(String header) {
        if (header == null || header.length() < 6 || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
            return false;
        }
        String token = header.substring(6).trim();
        String digest = sha256(token);
        if (accepted.contains(digest)) {
            return true;
        }
        String pair;
        try {
            pair = new String(Base64.getDecoder().decode(token), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return false;
        }
        int colon = pair.indexOf(':');
        if (colon < 0 || !credentials.matches(pair.substring(0, colon), pair.substring(colon + 1))) {
            return false;
        }
        if (accepted.size() >= MAX_REMEMBERED) {
            accepted.clear();
        }
        accepted.add(digest);
        return true;
    }

    private static String sha256(String s) {
        try {
            return HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
