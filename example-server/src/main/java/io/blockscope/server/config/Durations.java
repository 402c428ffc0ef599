package io.blockscope.server.config;

import java.time.Duration;
import java.util.Locale;

/** Parses durations such as {@code 500ms}, {@code 20s}, {@code 2m}, {@code 1h} (and {@code us}, {@code ns} for tests). */
public final class Durations {

    private Durations() {}

    public static Duration parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.endsWith("ns")) {
                return Duration.ofNanos(positive(t.substring(0, t.length() - 2)));
            }
            if (t.endsWith("us")) {
                return Duration.ofNanos(positive(t.substring(0, t.length() - 2)) * 1000);
            }
            if (t.endsWith("ms")) {
                return Duration.ofMillis(positive(t.substring(0, t.length() - 2)));
            }
            if (t.endsWith("s")) {
                return Duration.ofMillis(Math.round(positiveDecimal(t.substring(0, t.length() - 1)) * 1000));
            }
            if (t.endsWith("m")) {
                return Duration.ofSeconds(positive(t.substring(0, t.length() - 1)) * 60);
            }
            if (t.endsWith("h")) {
                return Duration.ofSeconds(positive(t.substring(0, t.length() - 1)) * 3600);
            }
        } catch (NumberFormatException e) {
            // fall through to the message below
        }
        throw new IllegalArgumentException("bad duration '" + text + "': use a number with ms, s, m or h, e.g. 20s");
    }

    private static long positive(String digits) {
        long n = Long.parseLong(digits);
        if (n < 0) {
            throw new NumberFormatException();
        }
        return n;
    }

    private static double positiveDecimal(String digits) {
        double n = Double.parseDouble(digits);
        if (!(n >= 0) || Double.isInfinite(n)) {
            throw new NumberFormatException();
        }
        return n;
    }

    /** A short human form: "20s", "500ms", "1.5s". */
    public static String format(Duration d) {
        if (d.toNanos() % 1_000_000 != 0) {
            return d.toNanos() + "ns";
        }
        long ms = d.toMillis();
        if (ms % 1000 != 0) {
            return ms < 1000 ? ms + "ms" : (ms / 1000.0) + "s";
        }
        return (ms / 1000) + "s";
    }
}
