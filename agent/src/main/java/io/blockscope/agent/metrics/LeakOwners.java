package io.blockscope.agent.metrics;

import io.blockscope.agent.bootstrap.Context;
import io.blockscope.agent.bootstrap.Interned;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.List;

/**
 * Whose leaks they are: the leaks of {@code blockscope_block_leaks} and the stuck pool buffers by
 * the table the taking thread worked for, in families of their own (as copies by table are). A
 * table shows the kinds that leaked there, each with both reasons, and the buffers stuck now;
 * bounded by the {@code tables} cap.
 */
final class LeakOwners {

    private LeakOwners() {}

    static void collect(List<MetricSnapshot> out, LeakReport leaks) {
        Interned tables = Context.tables();
        long[] byTable = leaks.leaksByTable();
        CounterSnapshot.Builder leaked = CounterSnapshot.builder()
                .name("blockscope_block_leaks_by_table")
                .help("Sampled block checkouts and pool buffers that leaked (as blockscope_block_leaks), by the"
                        + " table (namespace:table) whose work took them.");
        for (int t = 0; t < tables.width(); t++) {
            String table = CopyOwners.tableLabel(tables, t);
            for (LeakReport.Kind kind : LeakReport.Kind.values()) {
                int gc = LeakReport.tableColumn(t, kind, LeakReport.GC);
                int age = LeakReport.tableColumn(t, kind, LeakReport.AGE);
                if (table == null || age >= byTable.length || byTable[gc] + byTable[age] == 0) {
                    continue;
                }
                leaked.dataPoint(Points.counter(byTable[gc], "kind", kind.label(), "reason", "gc", "table", table));
                leaked.dataPoint(Points.counter(byTable[age], "kind", kind.label(), "reason", "age", "table", table));
            }
        }
        out.add(leaked.build());
    }

    /** Stuck pool buffers by table id ({@code StuckBuffers.stuckByTable}): only tables with some. */
    static void stuckBuffers(List<MetricSnapshot> out, int[] byTable) {
        Interned tables = Context.tables();
        GaugeSnapshot.Builder stuck = GaugeSnapshot.builder()
                .name("blockscope_allocator_pool_buffers_stuck_by_table")
                .help("Of blockscope_allocator_pool_buffers_stuck, the buffers taken while the thread worked for the"
                        + " table (namespace:table).");
        for (int t = 0; t < byTable.length; t++) {
            String table = CopyOwners.tableLabel(tables, t);
            if (byTable[t] != 0 && table != null) {
                stuck.dataPoint(Points.gauge(byTable[t], "table", table));
            }
        }
        out.add(stuck.build());
    }
}
