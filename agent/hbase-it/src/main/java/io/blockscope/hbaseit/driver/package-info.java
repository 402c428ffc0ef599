/**
 * Small programs that drive real Apache HBase 2.x block caches and cells, each in its own JVM with
 * exactly one HBase version on its class path (and, in the tests, the blockscope agent attached).
 *
 * <p>They compile against the HBase 2.6 API; what changed since 2.2 (how blocks are built and given
 * back) sits behind {@link io.blockscope.hbaseit.driver.HBaseBlocks}. Each program talks to its test
 * through {@link io.blockscope.hbaseit.driver.DriverConsole}: one machine-readable line per
 * checkpoint, with HBase's own statistics, then a pause until the test has scraped the agent.
 */
package io.blockscope.hbaseit.driver;
