package io.blockscope.agent.bootstrap;

/**
 * One thread's {@link Context}: the ids of its table and user and of the tables its open region
 * operations found, and beside each table the region it came with. Written and read by the thread
 * only.
 */
final class ContextRow {
    /** Table id, user id, depth, then the tables the open region operations found ({@link Context}). */
    final int[] ids = new int[Context.LENGTH];
    /**
     * The region (HBase: its encoded name, a {@code String} the region keeps) of the table in the
     * same slot of {@link #ids}: at {@code TABLE} the current one, from {@code STACK} the saved ones.
     * A reference store, so that a leak report can name the region without a label per region.
     */
    final Object[] regions = new Object[Context.LENGTH];
}
