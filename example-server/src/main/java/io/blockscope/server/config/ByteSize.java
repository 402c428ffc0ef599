package io.blockscope.server.config;

import java.util.Locale;

/** Parses sizes such as {@code 65536}, {@code 64k}, {@code 64m}, {@code 1g} (binary units, case-insensitive). */
public final class ByteSize {

    private ByteSize() {}

    public static long parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.endsWith("b")) {
            t = t.substring(0, t.length() - 1);
        }
        long unit = 1;
        if (!t.isEmpty()) {
            switch (t.charAt(t.length() - 1)) {
                case 'k' -> unit = 1L << 10;
                case 'm' -> unit = 1L << 20;
                case 'g' -> unit = 1L << 30;
                case 't' -> unit = 1L << 40;
                default -> unit = 1;
            }
        }
        String digits = unit == 1 ? t : t.substring(0, t.length() - 1);
        try {
            long n = Long.parseLong(digits);
            if (n < 0) {
                throw new NumberFormatException();
            }
            return Math.multiplyExact(n, unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(
                    "bad size '" + text + "': use bytes or a number with k, m or g, e.g. 64m");
        }
    }

    /** A short human form: 65536 -> "64k", 1073741824 -> "1g". */
    public static String format(long bytes) {
        String[] units = {"", "k", "m", "g", "t"};
        long n = bytes;
        int u = 0;
        while (n != 0 && n % 1024 == 0 && u < units.length - 1) {
            n /= 1024;
            u++;
        }
        return n + units[u];
    }
}
