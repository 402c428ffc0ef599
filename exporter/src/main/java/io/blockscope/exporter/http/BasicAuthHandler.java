package io.blockscope.exporter.http;

import io.blockscope.exporter.auth.Credentials;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * HTTP basic authentication for everything but {@code /-/healthy} (a liveness probe learns nothing
 * from it and often cannot send credentials).
 *
 * <p>A PBKDF2 check costs tens to hundreds of milliseconds by design, and Prometheus sends the same
 * header on every scrape; so the SHA-256 of each accepted header is remembered (a handful at most)
 * and a repeat costs one digest. A refused header is never remembered.
 */
final class BasicAuthHandler extends Handler.Wrapper {

    private static final String CHALLENGE = "Basic realm=\"blockscope\", charset=\"UTF-8\"";
    private static final int MAX_REMEMBERED = 8;

    private final Credentials credentials;
    private final Set<String> accepted = ConcurrentHashMap.newKeySet();

    BasicAuthHandler(Credentials credentials, Handler next) {
        super(next);
        this.credentials = credentials;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (MetricsHandler.HEALTHY.equals(Request.getPathInContext(request))
                || authorized(request.getHeaders().get(HttpHeader.AUTHORIZATION))) {
            return super.handle(request, response, callback);
        }
        response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, CHALLENGE);
        return MetricsHandler.plain(response, callback, HttpStatus.UNAUTHORIZED_401, "Unauthorized.\n");
    }

    boolean authorized(String header) {
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
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
