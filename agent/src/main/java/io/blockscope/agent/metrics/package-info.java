/**
 * Owns turning what the probes counted into Prometheus series (references, leaks, copy sites,
 * occupancy). May depend on record, instrument, profile, bootstrap and the exporter.
 */
package io.blockscope.agent.metrics;
