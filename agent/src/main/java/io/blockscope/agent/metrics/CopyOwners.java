package io.blockscope.agent.metrics;

import io.blockscope.agent.bootstrap.Context;
import io.blockscope.agent.bootstrap.Counters;
import io.blockscope.agent.bootstrap.Interned;
import io.blockscope.agent.profile.Component;
import io.blockscope.agent.record.CopySiteOwners;
import io.blockscope.agent.record.Recorder;
import io.blockscope.agent.record.SiteTable;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.List;

/**
 * Whose copies they are: copy bytes by table and component, and by user, as the context probes
 * attributed them (see the bootstrap's {@code Context}). Only label values with bytes are shown;
 * their number is bounded by the {@code tables} and {@code users} caps (plus {@code (none)}, the
 * fixed users and {@code other}).
 */
final class CopyOwners {

    private CopyOwners() {}

    static void collect(List<MetricSnapshot> out) {
        Interned tables = Context.tables();
        Interned users = Context.users();
        long[] byTable = new long[tables.width() * Counters.MAX_COMPONENTS];
        long[] byUser = new long[users.width()];
        Context.copyBytes(byTable, byUser);

        CounterSnapshot.Builder tableBytes = CounterSnapshot.builder()
                .name("blockscope_copy_to_heap_bytes_by_table")
                .help("Bytes copies moved onto the heap, by the table (namespace:table) whose work made them.");
        for (int t = 0; t < tables.width(); t++) {
            String table = tableLabel(tables, t);
            for (Component c : Component.values()) {
                long bytes = byTable[t * Counters.MAX_COMPONENTS + c.ordinal()];
                if (bytes != 0 && table != null) {
                    tableBytes.dataPoint(Points.counter(bytes, "component", c.label(), "table", table));
                }
            }
        }
        out.add(tableBytes.build());

        CounterSnapshot.Builder userBytes = CounterSnapshot.builder()
                .name("blockscope_copy_to_heap_bytes_by_user")
                .help("Bytes copies moved onto the heap, by the RPC user whose call made them.");
        for (int u = 0; u < users.width(); u++) {
            Object user = users.key(u);
            if (byUser[u] != 0 && user != null) {
                userBytes.dataPoint(Points.counter(byUser[u], "user", user.toString()));
            }
        }
        out.add(userBytes.build());
    }

    /**
     * Sampled copy bytes by site and the table and user whose work made them: which application's
     * reads a hot site serves. Bounded like the sites (the {@code sites} cap, the rest under {@code
     * other} for all three labels). Scaled by the sampling rate like {@code blockscope_copy_site_bytes}.
     */
    static void sites(List<MetricSnapshot> out, Recorder r) {
        CounterSnapshot.Builder bytes = CounterSnapshot.builder()
                .name("blockscope_copy_site_owner_bytes")
                .help("Bytes of sampled copies by call site and the table (namespace:table) and RPC user whose work"
                        + " made them, scaled by the sampling rate.")
                .unit(Unit.BYTES);
        if (r != null) {
            Interned tables = Context.tables();
            Interned users = Context.users();
            for (SiteTable.Row row : r.copySiteOwners().snapshot()) {
                CopySiteOwners.Owner owner = CopySiteOwners.parse(row.site());
                String table = owner.table < 0 ? SiteTable.OTHER : tableLabel(tables, owner.table);
                Object user = owner.user < 0 ? SiteTable.OTHER : users.key(owner.user);
                if (table != null && user != null) {
                    bytes.dataPoint(Points.counter(
                            (double) row.values()[0], "site", owner.site, "table", table, "user", user.toString()));
                }
            }
        }
        out.add(bytes.build());
    }

    /** {@code namespace:table}, the default namespace spelled out; the fixed labels as they are. */
    static String tableLabel(Interned tables, int id) {
        Object key = tables.key(id);
        if (key == null || tables.isLabel(id)) {
            return key == null ? null : key.toString();
        }
        String name = key.toString();
        return name.indexOf(':') >= 0 ? name : "default:" + name;
    }
}
