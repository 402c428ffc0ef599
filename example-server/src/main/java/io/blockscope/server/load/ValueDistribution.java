package io.blockscope.server.load;

import java.util.Locale;

/** How value sizes vary across cells, after PE's {@code sequentialWrite} options. */
public enum ValueDistribution {
    /** Every value has exactly the configured size. */
    FIXED,
    /** Uniform between 0 and the configured size (PE {@code --valueRandom}). */
    RANDOM,
    /** Zipfian between 1 and the configured size, exponent 1.2: mostly small (PE {@code --valueZipf}). */
    ZIPF;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ValueDistribution parse(String text) {
        for (ValueDistribution d : values()) {
            if (d.label().equals(text)) {
                return d;
            }
        }
        throw new IllegalArgumentException("unknown value distribution '" + text + "'; accepted: fixed, random, zipf");
    }
}
