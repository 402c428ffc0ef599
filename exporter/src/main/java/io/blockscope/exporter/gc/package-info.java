/**
 * Owns GC pause metrics: from the JFR stream where it exists (JDK 14+), from GC MXBean
 * notifications elsewhere. May depend on the exporter's logging.
 */
package io.blockscope.exporter.gc;
