/**
 * Owns how the exporter's command-line tools fail: a reason and a status, never System.exit from
 * a library. A leaf.
 */
package io.blockscope.exporter.cli;
