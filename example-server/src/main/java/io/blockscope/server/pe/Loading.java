package io.blockscope.server.pe;

import java.util.ArrayList;
import java.util.List;

/**
 * One loading of the deploy comparison ("Comparing BlockCache Deploys"): random reads over the
 * first {@code rows} rows of the table, chosen so that the data read is {@code factor} times the
 * data cache. The seed kept heap and cache fixed and varied only how much of the data set the
 * clients read; with uniform random reads the hit ratio is then about {@code 1 / factor} once the
 * cache is full (all hits when the factor is at most 1).
 *
 * @param name   short label ({@code all-in-cache}, {@code just-out}, ...)
 * @param factor data read over the data cache's size
 * @param rows   rows read: {@code 0..rows-1}
 */
public record Loading(String name, double factor, long rows) {

    /**
     * The seed's four loadings: all hits, ~50% misses, ~75% misses, mostly misses. The first is half
     * the cache, not nearly all of it: the bucket cache stores a block in the smallest size class
     * that fits it, and a 64 KB block plus its last cell goes to the 96 KB class, so an L2 holds only
     * about two thirds of its size in blocks.
     */
    public static final List<Double> SEED_FACTORS = List.of(0.5, 2.0, 4.0, 16.0);

    private static final List<String> SEED_NAMES = List.of("all-in-cache", "just-out", "good-bit-out", "mostly-misses");

    public Loading {
        if (rows < 1) {
            throw new IllegalArgumentException("loading " + name + " reads no row");
        }
    }

    /** The hit ratio a uniform random reader sees once an ideal cache is full: {@code min(1, 1/factor)}. */
    public double expectedHitRatio() {
        return Math.min(1.0, 1.0 / factor);
    }

    /**
     * The loadings for a data cache of {@code cacheBytes} over a table of {@code tableRows} rows
     * whose data blocks take {@code tableDataBytes} (rows have random sizes, so the table's average
     * row is what maps a byte budget to a row count).
     *
     * @param factors ascending, each above 0: data read over cache size
     * @throws IllegalArgumentException when the table is too small for the largest factor, saying how
     *     many rows it needs
     */
    public static List<Loading> plan(List<Double> factors, long cacheBytes, long tableRows, long tableDataBytes) {
        if (factors.isEmpty()) {
            throw new IllegalArgumentException("--loadings needs at least one factor, e.g. 0.8,2,4,16");
        }
        if (cacheBytes <= 0 || tableRows <= 0 || tableDataBytes <= 0) {
            throw new IllegalArgumentException("cache size, table rows and table bytes must be positive, got "
                    + cacheBytes + ", " + tableRows + ", " + tableDataBytes);
        }
        double bytesPerRow = (double) tableDataBytes / tableRows;
        List<Loading> loadings = new ArrayList<>();
        double previous = 0;
        for (int i = 0; i < factors.size(); i++) {
            double factor = factors.get(i);
            if (!(factor > previous)) {
                throw new IllegalArgumentException(
                        "--loadings must be ascending factors above 0 (data read / cache size), got " + factors);
            }
            previous = factor;
            long rows = (long) Math.ceil(factor * cacheBytes / bytesPerRow);
            if (rows > tableRows) {
                throw new IllegalArgumentException(String.format(
                        "the table is too small for loading factor %s: it needs about %,d rows (%,d MB of data "
                                + "blocks at %.0f B per row) and has %,d; load more rows or lower --cache-size",
                        factor, rows, (long) (rows * bytesPerRow) >> 20, bytesPerRow, tableRows));
            }
            String name = factors.equals(SEED_FACTORS) ? SEED_NAMES.get(i) : "x" + trim(factor);
            loadings.add(new Loading(name, factor, rows));
        }
        return loadings;
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
