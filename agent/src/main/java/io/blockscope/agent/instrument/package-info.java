/**
 * Owns the ByteBuddy side: matching the profile's targets, the inlined advice, and which probes
 * were installed or skipped. May depend on profile, bootstrap and the exporter's logging.
 */
package io.blockscope.agent.instrument;
