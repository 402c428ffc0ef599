package io.blockscope.agent.record;

/**
 * Where one observation of a site happened: the table and region whose work it was, when, and
 * what it added to which column of the site's row. A {@link SiteTable} row keeps its last one, for
 * an exemplar of the site's series (a region is never a label: a server has thousands).
 */
public final class Where {
    /** The row's column the observation added to. */
    public final int column;
    /** What it added there. */
    public final long amount;
    /** The table id ({@code Context.tables()}); 0: none. */
    public final int table;
    /** The region (HBase: its encoded name); never null. */
    public final Object region;

    public final long timeMillis;

    public Where(int column, long amount, int table, Object region, long timeMillis) {
        this.column = column;
        this.amount = amount;
        this.table = table;
        this.region = region;
        this.timeMillis = timeMillis;
    }
}
