package io.blockscope.exporter.page;

import java.util.Locale;

/** Numbers as a person reads them: binary byte units, short durations. */
final class Format {

    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB"};

    private Format() {}

    static String bytes(double bytes) {
        double value = bytes;
        int unit = 0;
        while (Math.abs(value) >= 1024 && unit < UNITS.length - 1) {
            value /= 1024;
            unit++;
        }
        return unit == 0
                ? String.format(Locale.ROOT, "%.0f B", value)
                : String.format(Locale.ROOT, "%.1f %s", value, UNITS[unit]);
    }

    static String count(double value) {
        return String.format(Locale.ROOT, "%,.0f", value);
    }

    static String seconds(double seconds) {
        if (Double.isNaN(seconds)) {
            return "n/a";
        }
        if (seconds < 0.001) {
            return String.format(Locale.ROOT, "%.0f µs", seconds * 1e6);
        }
        if (seconds < 1) {
            return String.format(Locale.ROOT, "%.1f ms", seconds * 1e3);
        }
        return String.format(Locale.ROOT, "%.2f s", seconds);
    }

    /** A share (0..1) as a percentage; "n/a" when unknown. */
    static String percent(double share) {
        if (Double.isNaN(share) || Double.isInfinite(share)) {
            return "n/a";
        }
        if (share > 0 && share < 0.001) {
            return "<0.1%";
        }
        return String.format(Locale.ROOT, "%.1f%%", share * 100);
    }

    /** A small rate such as collections a minute: one decimal, "n/a" when unknown. */
    static String decimal(double value) {
        return Double.isNaN(value) || Double.isInfinite(value) ? "n/a" : String.format(Locale.ROOT, "%,.1f", value);
    }

    /** A coarse duration: 45s, 3m 20s, 2h 5m. */
    static String duration(long millis) {
        long s = Math.max(0, millis) / 1000;
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return (s / 60) + "m " + (s % 60) + "s";
        }
        return (s / 3600) + "h " + (s % 3600 / 60) + "m";
    }
}
