package io.blockscope.server.pe;

/**
 * What PE measures: a region in this JVM (server-side cost only) or a server over RPC. Each target
 * is one configuration of the comparison (a read-path mode and a cache deploy).
 */
interface ReadTarget extends AutoCloseable {

    /** The read-path mode label ({@code copy}, {@code zero-copy}). */
    String readPath();

    /** The cache deploy label ({@code cbc-offheap}, ...). */
    String deploy();

    /** The server URL for an RPC target, null in-process. */
    String url();

    /** {@code zero-copy/cbc-offheap}; just the deploy for deploys without an L2 (no read-path choice). */
    default String label() {
        return readPath().equals("n/a") ? deploy() : readPath() + "/" + deploy();
    }

    /** Rows in the table the workloads read. */
    long tableRows();

    /** Reads the whole table once so every block is cached; returns a line describing the cache afterwards. */
    String loadIntoCache() throws Exception;

    Session newSession(WorkloadShape shape, long seed) throws Exception;

    /**
     * The serving JVM's cumulative costs.
     *
     * @param settleGc first wait (about a second: JFR's flush) until every GC pause that ended
     *     before the call has been counted. A slice's end is read settled; its start need not be,
     *     as the previous slice's end was, and only the few milliseconds that set up the slice lie
     *     between (a pause there counts to the slice).
     */
    CostSnapshot cost(boolean settleGc) throws Exception;

    /**
     * True when allocation is counted per worker thread (in-process: exactly the reads' own cost);
     * false when {@link #cost()} already covers the serving JVM's allocation (RPC).
     */
    boolean countsWorkerAllocation();

    /** Outstanding block references (must be 0 when idle). */
    long outstandingBlockReferences() throws Exception;

    @Override
    void close();
}
