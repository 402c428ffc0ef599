package io.blockscope.exporter.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Decides whether an {@code Authorization} header may pass, and keeps what callers without the
 * password can cost the host small. Transport-neutral: every HTTP endpoint of the exporter asks it.
 *
 * <ul>
 *   <li>A verified header is remembered (by its SHA-256, a microsecond) for {@link #VERIFIED_TTL_NANOS}, at
 *       most {@link #MAX_VERIFIED} of them: Prometheus sends the same header on every scrape, so a
 *       scrape costs one digest, not a password hash.
 *   <li>Checking any other header costs a password hash (PBKDF2 takes 100-500 ms of a core by design),
 *       so such checks are rationed: per client address ({@link #PER_CLIENT_BURST}, then one per
 *       {@link #PER_CLIENT_REFILL_NANOS}), overall ({@link #OVERALL_BURST}, then one per {@link
 *       #OVERALL_REFILL_NANOS}), and one at a time. A caller over its ration gets {@link
 *       Verdict#THROTTLED} without any hashing. A check that succeeds gives its tokens back.
 * </ul>
 *
 * Unknown headers therefore cost at most about one hash per {@link #OVERALL_REFILL_NANOS} in the
 * long run, whatever the number of attackers or addresses (docs/security.md has the measurement).
 */
public final class AuthGate {

    /** What to answer. */
    public enum Verdict {
        /** Credentials verified: serve. */
        ALLOWED,
        /** No or wrong credentials: 401 with a challenge. */
        DENIED,
        /** Too many unverified attempts: 429, retry after {@link AuthGate#retryAfterSeconds}. */
        THROTTLED
    }

    /** The {@code WWW-Authenticate} value of a 401, the same on both endpoints. */
    public static final String CHALLENGE = "Basic realm=\"blockscope\", charset=\"UTF-8\"";

    static final int MAX_VERIFIED = 16;
    static final long VERIFIED_TTL_NANOS = TimeUnit.MINUTES.toNanos(10);
    static final int PER_CLIENT_BURST = 3;
    static final long PER_CLIENT_REFILL_NANOS = TimeUnit.SECONDS.toNanos(30);
    static final int OVERALL_BURST = 4;
    static final long OVERALL_REFILL_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** Addresses whose rations are tracked; the least recently seen is forgotten beyond it. */
    static final int MAX_CLIENTS = 4096;

    private static final int MAX_HEADER_CHARS = 4096;

    private final Credentials credentials;
    private final Map<String, Long> verified = new LinkedHashMap<>(32, 0.75f, true);
    private final Map<String, TokenBucket> clients = new LinkedHashMap<String, TokenBucket>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, TokenBucket> eldest) {
            return size() > MAX_CLIENTS;
        }
    };
    private final TokenBucket overall;
    /** One password hash at a time: an attack can take at most one core, even within its ration. */
    private final Semaphore hashing = new Semaphore(1);

    public AuthGate(Credentials credentials) {
        this.credentials = credentials;
        this.overall = new TokenBucket(OVERALL_BURST, OVERALL_REFILL_NANOS, System.nanoTime());
    }

    /**
     * Checks a request's {@code Authorization} header.
     *
     * @param header the header value, or null when absent
     * @param clientAddress the peer's IP address (without port)
     */
    public Verdict check(String header, String clientAddress) {
        if (header == null
                || header.length() < 6
                || header.length() > MAX_HEADER_CHARS
                || !header.regionMatches(true, 0, "Basic ", 0, 6)) {
            return Verdict.DENIED;
        }
        long now = System.nanoTime();
        String token = header.substring(6).trim();
        String digest = sha256(token);
        if (isVerified(digest, now)) {
            return Verdict.ALLOWED;
        }
        String pair;
        try {
            pair = new String(Base64.getDecoder().decode(token), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return Verdict.DENIED;
        }
        int colon = pair.indexOf(':');
        if (colon < 0) {
            return Verdict.DENIED;
        }
        TokenBucket client = client(clientAddress, now);
        if (!client.tryTake(now)) {
            return Verdict.THROTTLED;
        }
        if (!overall.tryTake(now)) {
            client.giveBack(now);
            return Verdict.THROTTLED;
        }
        boolean ok;
        try {
            if (!hashing.tryAcquire(2, TimeUnit.SECONDS)) {
                client.giveBack(now);
                overall.giveBack(now);
                return Verdict.THROTTLED;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Verdict.THROTTLED;
        }
        try {
            ok = credentials.matches(pair.substring(0, colon), pair.substring(colon + 1));
        } finally {
            hashing.release();
        }
        if (!ok) {
            return Verdict.DENIED;
        }
        long done = System.nanoTime();
        client.giveBack(done);
        overall.giveBack(done);
        remember(digest, done);
        return Verdict.ALLOWED;
    }

    /** Seconds a throttled client should wait before trying again (for {@code Retry-After}). */
    public long retryAfterSeconds(String clientAddress) {
        long now = System.nanoTime();
        long wait = Math.max(client(clientAddress, now).nanosUntilToken(now), overall.nanosUntilToken(now));
        return Math.max(1, TimeUnit.NANOSECONDS.toSeconds(wait) + 1);
    }

    private synchronized boolean isVerified(String digest, long now) {
        Long expires = verified.get(digest);
        if (expires == null) {
            return false;
        }
        if (now - expires > 0) {
            verified.remove(digest);
            return false;
        }
        return true;
    }

    private synchronized void remember(String digest, long now) {
        verified.put(digest, now + VERIFIED_TTL_NANOS);
        while (verified.size() > MAX_VERIFIED) {
            verified.remove(verified.keySet().iterator().next());
        }
    }

    private synchronized TokenBucket client(String address, long now) {
        String key = address == null ? "" : address;
        TokenBucket bucket = clients.get(key);
        if (bucket == null) {
            bucket = new TokenBucket(PER_CLIENT_BURST, PER_CLIENT_REFILL_NANOS, now);
            clients.put(key, bucket);
        }
        return bucket;
    }

    private static String sha256(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
