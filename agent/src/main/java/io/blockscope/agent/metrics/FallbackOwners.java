package io.blockscope.agent.metrics;

import io.blockscope.agent.bootstrap.Context;
import io.blockscope.agent.bootstrap.Counters;
import io.blockscope.agent.bootstrap.Interned;
import io.blockscope.agent.profile.FallbackReason;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.List;

/**
 * Whose heap fallbacks they are: fallbacks and their bytes by the table the allocating thread
 * worked for, as the context probes attributed it, in families of their own beside the unlabelled
 * {@code blockscope_allocator_heap_fallbacks} (so its queries and alerts keep their meaning), as
 * copies by table are. Only tables with fallbacks are shown; bounded like copies by the {@code
 * tables} cap.
 */
final class FallbackOwners {

    private FallbackOwners() {}

    static void collect(List<MetricSnapshot> out) {
        Interned tables = Context.tables();
        long[] byTable = new long[tables.width() * 2 * Counters.FALLBACK_REASONS];
        Context.heapFallbacks(byTable);
        CounterSnapshot.Builder calls = CounterSnapshot.builder()
                .name("blockscope_allocator_heap_fallbacks_by_table")
                .help("Buffer allocations a pooling allocator served from the heap, by the table (namespace:table)"
                        + " whose work asked for them, and reason.");
        // No unit(BYTES): the client would append it to a name that does not end in it
        // (..._by_table_bytes_total), not the documented ..._bytes_by_table_total, as copies by table.
        CounterSnapshot.Builder bytes = CounterSnapshot.builder()
                .name("blockscope_allocator_heap_fallback_bytes_by_table")
                .help("Bytes of those heap allocations, by table and reason.");
        for (int t = 0; t < tables.width(); t++) {
            String table = CopyOwners.tableLabel(tables, t);
            for (FallbackReason reason : FallbackReason.values()) {
                int i = (t * Counters.FALLBACK_REASONS + reason.index()) * 2;
                if (byTable[i] != 0 && table != null) {
                    calls.dataPoint(point(byTable[i], table, reason));
                    bytes.dataPoint(point(byTable[i + 1], table, reason));
                }
            }
        }
        out.add(calls.build());
        out.add(bytes.build());
    }

    private static CounterSnapshot.CounterDataPointSnapshot point(long value, String table, FallbackReason reason) {
        return CounterSnapshot.CounterDataPointSnapshot.builder()
                .value(value)
                .labels(Labels.of("reason", reason.label(), "table", table))
                .build();
    }
}
