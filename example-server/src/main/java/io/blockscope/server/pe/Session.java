package io.blockscope.server.pe;

/**
 * One worker thread's connection to a target: it runs operations of one workload back to back.
 * Implementations keep their scratch state (keys, buffers, random source) between operations so
 * the measuring loop itself allocates nothing.
 */
interface Session {

    /** Runs one operation; returns the rows the server read for it (returned or filtered out). */
    long execute() throws Exception;

    /** Rows returned to the client so far by this session. */
    long rowsReturned();
}
