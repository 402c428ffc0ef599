package io.blockscope.agent.metrics;

import io.blockscope.agent.bootstrap.Context;
import io.blockscope.agent.bootstrap.Counters;
import io.blockscope.agent.bootstrap.Interned;
import io.blockscope.agent.profile.FallbackReason;
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
        CallsAndBytes fallbacks = new CallsAndBytes(
                "blockscope_allocator_heap_fallbacks_by_table",
                "Buffer allocations a pooling allocator served from the heap, by the table (namespace:table)"
                        + " whose work asked for them, and reason.",
                "blockscope_allocator_heap_fallback_bytes_by_table",
                "Bytes of those heap allocations, by table and reason.");
        for (int t = 0; t < tables.width(); t++) {
            String table = CopyOwners.tableLabel(tables, t);
            for (FallbackReason reason : FallbackReason.values()) {
                int i = (t * Counters.FALLBACK_REASONS + reason.index()) * 2;
                if (byTable[i] != 0 && table != null) {
                    fallbacks.point(byTable[i], byTable[i + 1], "reason", reason.label(), "table", table);
                }
            }
        }
        fallbacks.addTo(out);
    }
}
