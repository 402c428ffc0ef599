/**
 * Demo only: the two read-path mistakes blockscope exists to find, built into the example server so
 * that {@code bash .ci/demo} can show them being found. {@link io.blockscope.server.demo.CopyingValueFilter}
 * is a scan filter written against {@code getValueArray()}, which copies every value onto the heap;
 * {@link io.blockscope.server.demo.LeakingReader} checks blocks out of the cache and forgets to give
 * one in N back. {@link io.blockscope.server.demo.DemoControl} switches the reader on and off from a
 * file, so a script can run the acts without any network surface. Nothing here runs unless asked for.
 */
package io.blockscope.server.demo;
