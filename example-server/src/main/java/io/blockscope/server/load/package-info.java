/**
 * Owns table loading: the table spec, value size distributions and the writer that turns them
 * into store files. May depend on storefile, cell and buffer.
 */
package io.blockscope.server.load;
