/**
 * Owns the exporter's own metrics (build info, scrape durations, the CPU time of the agent's own
 * threads by part). A leaf.
 */
package io.blockscope.exporter.self;
