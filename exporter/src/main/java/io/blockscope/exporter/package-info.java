/**
 * Owns the exporter's face to the agent: its configuration, its start (registry, GC metrics,
 * endpoint) and its one logging style. May depend on every exporter package.
 */
package io.blockscope.exporter;
