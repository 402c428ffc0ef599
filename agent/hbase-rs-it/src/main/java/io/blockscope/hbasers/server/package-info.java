/**
 * Code that runs inside the RegionServer under test (the test classes are on its class path): a
 * filter that copies values onto the heap and a coprocessor that leaks a region scanner, each
 * keeping its own count, readable over JMX as {@link io.blockscope.hbasers.server.ServerLedger};
 * and the smallest in-place variants of HBase's copying comparator, filter and column interpreter
 * ({@code InPlace*}), which the findings test measures against the stock ones.
 * Compiled for Java 11 so the same classes load in a RegionServer on JDK 11.
 */
package io.blockscope.hbasers.server;
