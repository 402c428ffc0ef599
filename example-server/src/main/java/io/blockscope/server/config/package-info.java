/**
 * Owns parsing of sizes, durations and config-file defaults. A leaf utility that any layer may
 * use; depends on nothing in the server.
 */
package io.blockscope.server.config;
