/**
 * Owns the exporter's own metrics (build info, scrape durations). A leaf.
 */
package io.blockscope.exporter.self;
