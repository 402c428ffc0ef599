package io.blockscope.server.load;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * What a generated table holds, as a pure function of a few parameters: the row keys, the columns,
 * and every value's size and bytes. The loader writes it and the tests regenerate it to check that
 * the server returns exactly what was loaded, byte for byte.
 *
 * <p>Rows are numbered {@code 0..rows-1}; row {@code i}'s key is {@code i} in decimal, zero-padded
 * to {@value #ROW_KEY_LENGTH} digits (PE's key layout), so numeric and key order agree. One family,
 * {@value #FAMILY}; qualifiers {@code "0".."9"}. Value bytes are a stream of splitmix64 outputs
 * seeded by (seed, row, qualifier): uniformly distributed, which the 10% value filter relies on.
 */
public final class TableSpec {

    public static final int ROW_KEY_LENGTH = 26;
    public static final String FAMILY = "info";
    public static final int MAX_QUALIFIERS = 10;
    private static final byte[] FAMILY_BYTES = FAMILY.getBytes(StandardCharsets.US_ASCII);
    private static final double ZIPF_EXPONENT = 1.2;

    private final String name;
    private final long rows;
    private final int qualifiers;
    private final int valueSize;
    private final ValueDistribution distribution;
    private final long seed;
    private final long timestamp;

    public TableSpec(
            String name,
            long rows,
            int qualifiers,
            int valueSize,
            ValueDistribution distribution,
            long seed,
            long timestamp) {
        if (name == null || !name.matches("[A-Za-z0-9_.-]{1,64}")) {
            throw new IllegalArgumentException("table name '" + name + "' must be 1..64 of [A-Za-z0-9_.-]");
        }
        if (rows < 1 || rows > 9_999_999_999L) {
            throw new IllegalArgumentException("rows must be 1..9999999999, got " + rows);
        }
        if (qualifiers < 1 || qualifiers > MAX_QUALIFIERS) {
            throw new IllegalArgumentException("qualifiers must be 1.." + MAX_QUALIFIERS + ", got " + qualifiers);
        }
        if (valueSize < 1 || valueSize > 16 * 1024 * 1024) {
            throw new IllegalArgumentException("value size must be 1..16777216 bytes, got " + valueSize);
        }
        this.name = name;
        this.rows = rows;
        this.qualifiers = qualifiers;
        this.valueSize = valueSize;
        this.distribution = Objects.requireNonNull(distribution, "distribution");
        this.seed = seed;
        this.timestamp = timestamp;
    }

    public String name() {
        return name;
    }

    public long rows() {
        return rows;
    }

    public int qualifiers() {
        return qualifiers;
    }

    public int valueSize() {
        return valueSize;
    }

    public ValueDistribution distribution() {
        return distribution;
    }

    public long seed() {
        return seed;
    }

    /** The timestamp of every cell. */
    public long timestamp() {
        return timestamp;
    }

    public static byte[] family() {
        return FAMILY_BYTES.clone();
    }

    /** Qualifier {@code q} (0-based): the ASCII digit {@code q}. */
    public static byte[] qualifier(int q) {
        return new byte[] {(byte) ('0' + q)};
    }

    public static byte[] rowKey(long row) {
        byte[] key = new byte[ROW_KEY_LENGTH];
        rowKey(row, key, 0);
        return key;
    }

    /** Writes row {@code row}'s key into {@code dst} at {@code offset}, without allocating. */
    public static void rowKey(long row, byte[] dst, int offset) {
        long rest = row;
        for (int i = offset + ROW_KEY_LENGTH - 1; i >= offset; i--) {
            dst[i] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
    }

    /** The row number of a key made by {@link #rowKey}, or -1 if it is not one. */
    public static long rowNumber(byte[] key) {
        if (key.length != ROW_KEY_LENGTH) {
            return -1;
        }
        long row = 0;
        for (byte b : key) {
            if (b < '0' || b > '9') {
                return -1;
            }
            row = row * 10 + (b - '0');
        }
        return row;
    }

    /** Size in bytes of the value of (row, qualifier). */
    public int valueLength(long row, int qualifier) {
        switch (distribution) {
            case FIXED:
                return valueSize;
            case RANDOM:
                return (int) Long.remainderUnsigned(mix(sizeSeed(row, qualifier)), valueSize + 1L);
            case ZIPF:
                return zipfSize(unitInterval(mix(sizeSeed(row, qualifier))));
            default:
                throw new AssertionError(distribution);
        }
    }

    /** The value of (row, qualifier), freshly allocated. */
    public byte[] value(long row, int qualifier) {
        byte[] value = new byte[valueLength(row, qualifier)];
        fillValue(row, qualifier, value, 0, value.length);
        return value;
    }

    /** Writes the first {@code length} bytes of the value of (row, qualifier) into {@code dst}. */
    public void fillValue(long row, int qualifier, byte[] dst, int offset, int length) {
        long state = valueSeed(row, qualifier);
        int i = 0;
        while (i < length) {
            state += GOLDEN_GAMMA;
            long word = mix(state);
            for (int b = 0; b < Long.BYTES && i < length; b++, i++) {
                dst[offset + i] = (byte) (word >>> (56 - 8 * b));
            }
        }
    }

    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    private long sizeSeed(long row, int qualifier) {
        return seed * 0xD1B54A32D192ED03L + row * GOLDEN_GAMMA + qualifier * 0xAEF17502108EF2D9L + 1;
    }

    private long valueSeed(long row, int qualifier) {
        return mix(seed ^ 0x5851F42D4C957F2DL) + row * 0x9FB21C651E98DF25L + qualifier * 0xC2B2AE3D27D4EB4FL;
    }

    /** splitmix64's output function: a good 64-bit mixer. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private static double unitInterval(long bits) {
        return (bits >>> 11) * 0x1.0p-53;
    }

    /** Inverse CDF of the continuous power law x^-s on [1, valueSize + 1), floored: Zipf-like sizes. */
    private int zipfSize(double u) {
        double oneMinusS = 1 - ZIPF_EXPONENT;
        double top = Math.pow(valueSize + 1.0, oneMinusS);
        double x = Math.pow(1 + u * (top - 1), 1 / oneMinusS);
        return (int) Math.max(1, Math.min(valueSize, Math.floor(x)));
    }

    @Override
    public String toString() {
        return "table " + name + ": " + rows + " rows x " + qualifiers + " qualifiers, values " + distribution.label()
                + " " + valueSize + " B";
    }
}
