/**
 * Owns a tiny SLF4J provider so the shaded libraries log through the exporter's one stderr
 * style, never the host's logging. May depend on the exporter's logging.
 */
package io.blockscope.exporter.slf4j;
