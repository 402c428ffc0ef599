package io.blockscope.exporter.auth;

/** Lower-case hex, as {@code java.util.HexFormat} (JDK 17) does it; the exporter runs on JDK 11. */
final class Hex {

    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    String formatHex(byte[] bytes) {
        char[] out = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            out[2 * i] = DIGITS[(bytes[i] >> 4) & 0xf];
            out[2 * i + 1] = DIGITS[bytes[i] & 0xf];
        }
        return new String(out);
    }

    /** @throws IllegalArgumentException for an odd count or a character that is not a hex digit */
    byte[] parseHex(String digits) {
        if (digits.length() % 2 != 0) {
            throw new IllegalArgumentException("odd number of hex digits");
        }
        byte[] out = new byte[digits.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) (digit(digits.charAt(2 * i)) << 4 | digit(digits.charAt(2 * i + 1)));
        }
        return out;
    }

    private static int digit(char c) {
        int d = Character.digit(c, 16);
        if (d < 0) {
            throw new IllegalArgumentException("not a hex digit: " + c);
        }
        return d;
    }
}
