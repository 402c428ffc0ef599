package io.blockscope.exporter.endpoint;

import io.netty.handler.codec.http.QueryStringDecoder;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The path of a request target, read the way Jetty 12 reads it by default ({@code
 * UriCompliance.DEFAULT}), so that both endpoints route the same requests: origin form
 * ({@code /metrics?...}) or absolute form ({@code http://host/metrics}), percent-decoded, {@code .}
 * and {@code ..} segments resolved; ambiguous targets (an empty segment {@code //}, an encoded
 * {@code /} or {@code \}, an encoded dot segment, {@code ..} above the root, bad escapes) are refused.
 */
final class RequestTarget {

    private RequestTarget() {}

    /** The decoded, normalized path, {@code *} for the asterisk form, or null for a target to refuse with 400. */
    static String path(String target) {
        String raw;
        if (target.startsWith("/")) {
            raw = cut(target);
        } else if (target.equals("*")) {
            return target;
        } else if (target.regionMatches(true, 0, "http://", 0, 7) || target.regionMatches(true, 0, "https://", 0, 8)) {
            try {
                raw = new URI(target).getRawPath();
            } catch (URISyntaxException e) {
                return null;
            }
            if (raw == null || raw.isEmpty()) {
                raw = "/";
            }
        } else {
            return null;
        }
        String[] parts = raw.substring(1).split("/", -1);
        List<String> segments = new ArrayList<>();
        for (int i = 0; i < parts.length; i++) {
            String segment = parts[i];
            if (segment.isEmpty() && i < parts.length - 1) {
                return null; // "//": an empty segment is ambiguous
            }
            String lower = segment.toLowerCase(Locale.ROOT);
            if (lower.contains("%2f") || lower.contains("%5c")) {
                return null; // an encoded separator is ambiguous
            }
            String decoded;
            try {
                // '+' is a plus in a path (only a query decodes it to a space)
                decoded = QueryStringDecoder.decodeComponent(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                return null;
            }
            if (decoded.equals(".") || decoded.equals("..")) {
                if (!decoded.equals(segment)) {
                    return null; // an encoded dot segment is ambiguous
                }
                if (decoded.equals("..")) {
                    if (segments.isEmpty()) {
                        return null; // above the root
                    }
                    segments.remove(segments.size() - 1);
                }
                if (i == parts.length - 1) {
                    segments.add(""); // "/a/." and "/a/b/.." name a directory: keep the trailing '/'
                }
                continue;
            }
            segments.add(decoded);
        }
        return "/" + String.join("/", segments);
    }

    private static String cut(String target) {
        int end = target.length();
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c == '?' || c == '#') {
                end = i;
                break;
            }
        }
        return target.substring(0, end);
    }
}
