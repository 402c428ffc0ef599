package io.blockscope.exporter.page;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The last few minutes of samples, oldest first, and when each leak series was first and last seen
 * growing. Bounded by count; the leak times are bounded by the agent's label cardinality (top 20
 * sites + {@code other}, two reasons). Thread-safe: the sampler adds, page requests read.
 */
final class History {

    /** First and last time (epoch ms) a leak series was seen to grow. */
    static final class Seen {
        final long first;
        final long last;

        Seen(long first, long last) {
            this.first = first;
            this.last = last;
        }
    }

    private final int capacity;
    private final ArrayDeque<Sample> samples;
    private final Map<Sample.LeakKey, Seen> leakSeen = new HashMap<>();

    History(int capacity) {
        if (capacity < 2) {
            throw new IllegalArgumentException("a history needs room for two samples, got " + capacity);
        }
        this.capacity = capacity;
        this.samples = new ArrayDeque<>(capacity);
    }

    synchronized void add(Sample sample) {
        Sample previous = samples.peekLast();
        for (Map.Entry<Sample.LeakKey, Double> e : sample.leaks.entrySet()) {
            double before = previous == null ? 0 : previous.leaks.getOrDefault(e.getKey(), 0.0);
            if (e.getValue() > before) {
                Seen seen = leakSeen.get(e.getKey());
                leakSeen.put(e.getKey(), new Seen(seen == null ? sample.timeMillis : seen.first, sample.timeMillis));
            }
        }
        if (samples.size() == capacity) {
            samples.removeFirst();
        }
        samples.addLast(sample);
    }

    /** Oldest first. */
    synchronized List<Sample> samples() {
        return new ArrayList<>(samples);
    }

    synchronized Sample latest() {
        return samples.peekLast();
    }

    synchronized Map<Sample.LeakKey, Seen> leakSeen() {
        return new HashMap<>(leakSeen);
    }
}
