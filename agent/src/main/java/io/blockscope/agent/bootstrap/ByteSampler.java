package io.blockscope.agent.bootstrap;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Which events of a byte count (a copy, a heap fallback) are sampled: 1 in {@code rate} calls, or,
 * by bytes, an event of {@code b} bytes with probability {@code b / everyBytes} (always when
 * larger), so a site is sampled about once per that many bytes whatever the size of its events,
 * and each sample stands for {@code everyBytes} bytes: an unbiased estimate per site.
 *
 * <p>Immutable, so the bridge publishes one through a volatile field and a draw reads its settings
 * once. A draw takes no lock and allocates nothing: a {@link ThreadLocalRandom} draw keeps its state
 * in the {@code Thread} object. Bootstrap class: references only the JDK.
 */
public final class ByteSampler {

    /** Samples nothing. */
    public static final ByteSampler OFF = new ByteSampler(0, 0);

    private final int rate;
    private final long everyBytes;

    private ByteSampler(int rate, long everyBytes) {
        this.rate = rate;
        this.everyBytes = everyBytes;
    }

    /**
     * 1 in {@code rate} calls; when {@code rate} is 0, one sample per {@code everyBytes} bytes on
     * average; both 0 (or negative): nothing.
     */
    public static ByteSampler of(int rate, long everyBytes) {
        if (rate > 0) {
            return new ByteSampler(rate, 0);
        }
        return everyBytes > 0 ? new ByteSampler(0, everyBytes) : OFF;
    }

    /** 0 when an event of {@code bytes} bytes is not sampled; otherwise how many events it stands for. */
    public long draw(long bytes) {
        int r = rate;
        if (r > 0) {
            return r == 1 || ThreadLocalRandom.current().nextInt(r) == 0 ? r : 0;
        }
        long every = everyBytes;
        if (every <= 0 || bytes <= 0) {
            return 0;
        }
        if (bytes >= every) {
            return 1;
        }
        // sampled with probability bytes/every: stands for every/bytes events (rounded)
        return ThreadLocalRandom.current().nextLong(every) < bytes ? (every + bytes / 2) / bytes : 0;
    }

    /** The bytes a sampled event of {@code bytes} bytes, standing for {@code events} events, stands for. */
    public long estimatedBytes(long bytes, long events) {
        return rate > 0 ? bytes * events : Math.max(bytes, everyBytes);
    }

    @Override
    public String toString() {
        return rate > 0 ? "1 in " + rate : everyBytes > 0 ? "1 per " + everyBytes + " bytes" : "off";
    }
}
