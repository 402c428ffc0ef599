package io.blockscope.units;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one parser of byte sizes ({@code 65536}, {@code 64k}, {@code 64MiB}, {@code 1gb}: binary
 * units) and durations ({@code 500ms}, {@code 1.5s}, {@code 2m}, {@code 1h}; {@code us} and
 * {@code ns} too), case-insensitive. A value is a number and a unit; negative values, values too
 * large for a long, and fractions of the smallest unit are errors that say what is accepted.
 */
public final class Units {

    private static final Pattern QUANTITY = Pattern.compile("(\\d+(?:\\.\\d+)?)([a-z]*)");
    private static final Map<String, Long> BYTES = Map.ofEntries(
            Map.entry("", 1L),
            Map.entry("b", 1L),
            Map.entry("k", 1L << 10),
            Map.entry("kb", 1L << 10),
            Map.entry("kib", 1L << 10),
            Map.entry("m", 1L << 20),
            Map.entry("mb", 1L << 20),
            Map.entry("mib", 1L << 20),
            Map.entry("g", 1L << 30),
            Map.entry("gb", 1L << 30),
            Map.entry("gib", 1L << 30),
            Map.entry("t", 1L << 40),
            Map.entry("tb", 1L << 40),
            Map.entry("tib", 1L << 40));
    private static final Map<String, Long> NANOS = Map.of(
            "ns", 1L,
            "us", 1_000L,
            "ms", 1_000_000L,
            "s", 1_000_000_000L,
            "m", 60_000_000_000L,
            "h", 3_600_000_000_000L);
    private static final String[] SIZE_UNITS = {"", "k", "m", "g", "t"};

    private Units() {}

    /**
     * A byte count: a whole number, optionally with {@code k}, {@code m}, {@code g} or {@code t}
     * (also spelled {@code kb} or {@code KiB}; always powers of 1024).
     */
    public static long bytes(String text) {
        try {
            if (text.contains(".")) {
                throw new IllegalArgumentException("sizes are whole numbers");
            }
            return quantity(text, BYTES, "byte");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bad size '" + text + "': " + e.getMessage()
                    + "; use bytes or a whole number with k, m, g or t (or KiB, MiB...), e.g. 64m");
        }
    }

    /** A duration: a number with {@code ns}, {@code us}, {@code ms}, {@code s}, {@code m} or {@code h}. */
    public static Duration duration(String text) {
        try {
            return Duration.ofNanos(quantity(text, NANOS, "nanosecond"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bad duration '" + text + "': " + e.getMessage()
                    + "; use a number with ms, s, m or h (or us, ns), e.g. 20s or 1.5s");
        }
    }

    /** A short form that {@link #bytes} reads back: 65536 -> "64k", 1073741824 -> "1g". */
    public static String formatBytes(long bytes) {
        long n = bytes;
        int u = 0;
        while (n != 0 && n % 1024 == 0 && u < SIZE_UNITS.length - 1) {
            n /= 1024;
            u++;
        }
        return n + SIZE_UNITS[u];
    }

    /** A short form that {@link #duration} reads back: "20s", "500ms", "1.5s". */
    public static String formatDuration(Duration d) {
        if (d.toNanos() % 1_000_000 != 0) {
            return d.toNanos() + "ns";
        }
        long ms = d.toMillis();
        if (ms % 1000 != 0) {
            return ms < 1000 ? ms + "ms" : (ms / 1000.0) + "s";
        }
        return (ms / 1000) + "s";
    }

    /** The number times its unit, in the smallest unit, exactly; what is wrong as the exception's message. */
    private static long quantity(String text, Map<String, Long> units, String smallest) {
        Matcher m = QUANTITY.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    text.trim().startsWith("-") ? "it is negative" : "it is not a number followed by a unit");
        }
        Long unit = units.get(m.group(2));
        if (unit == null) {
            throw new IllegalArgumentException(
                    m.group(2).isEmpty() ? "it has no unit" : "unknown unit '" + m.group(2) + "'");
        }
        BigDecimal value = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unit));
        if (value.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw new IllegalArgumentException("it is more than " + Long.MAX_VALUE + " " + smallest + "s");
        }
        try {
            return value.setScale(0, RoundingMode.UNNECESSARY).longValueExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("it is a fraction of a " + smallest, e);
        }
    }
}
