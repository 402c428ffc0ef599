package io.blockscope.agent.metrics;

import io.blockscope.agent.bootstrap.Context;
import io.blockscope.agent.record.Where;
import io.prometheus.metrics.model.snapshots.Exemplar;
import io.prometheus.metrics.model.snapshots.Labels;

/** A site's last observation ({@link Where}) as the exemplar of one of its series. */
final class Exemplars {

    static final String REGION = "region";
    static final String TABLE = "table";
    /** OpenMetrics' limit on an exemplar's label names and values, together. */
    private static final int MAX_CHARACTERS = 128;

    private Exemplars() {}

    /**
     * The exemplar of the series fed by {@code column}: the region and table of the row's last
     * observation, when that added to this column; else null. The table goes only where it fits
     * beside the region.
     */
    static Exemplar of(Object note, int column) {
        if (!(note instanceof Where) || ((Where) note).column != column) {
            return null;
        }
        Where where = (Where) note;
        String region = where.region.toString();
        int length = REGION.length() + region.length();
        if (length > MAX_CHARACTERS) {
            return null;
        }
        String table = where.table == 0 ? null : CopyOwners.tableLabel(Context.tables(), where.table);
        Labels labels = table == null || length + TABLE.length() + table.length() > MAX_CHARACTERS
                ? Labels.of(REGION, region)
                : Labels.of(REGION, region, TABLE, table);
        return Exemplar.builder()
                .value(where.amount)
                .labels(labels)
                .timestampMillis(where.timeMillis)
                .build();
    }
}
