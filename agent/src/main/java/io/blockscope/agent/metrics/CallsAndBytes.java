package io.blockscope.agent.metrics;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Exemplar;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.List;

/**
 * A counter family of events and its twin of their bytes ({@code X} and {@code X_bytes}-style pairs:
 * copies, heap fallbacks, their sites and owners), filled point by point with the same labels so the
 * two can never disagree on which series exist.
 */
final class CallsAndBytes {

    private final CounterSnapshot.Builder calls;
    private final CounterSnapshot.Builder bytes;

    CallsAndBytes(String callsName, String callsHelp, String bytesName, String bytesHelp) {
        this.calls = CounterSnapshot.builder().name(callsName).help(callsHelp);
        this.bytes = CounterSnapshot.builder().name(bytesName).help(bytesHelp);
        // The client appends a unit to a name that does not end in it: ..._bytes_by_table would be
        // exported as ..._bytes_by_table_bytes_total, not the documented ..._bytes_by_table_total.
        if (bytesName.endsWith("_bytes")) {
            bytes.unit(Unit.BYTES);
        }
    }

    CallsAndBytes point(long callCount, long byteCount, String... labels) {
        return point(callCount, byteCount, null, labels);
    }

    /** A point whose bytes carry an exemplar (null: none). */
    CallsAndBytes point(long callCount, long byteCount, Exemplar bytesExemplar, String... labels) {
        calls.dataPoint(Points.counter((double) callCount, labels));
        bytes.dataPoint(Points.counter((double) byteCount, bytesExemplar, labels));
        return this;
    }

    void addTo(List<MetricSnapshot> out) {
        out.add(calls.build());
        out.add(bytes.build());
    }
}
