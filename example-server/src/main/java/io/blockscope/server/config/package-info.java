/**
 * Owns config-file defaults (sizes and durations are parsed by io.blockscope.units). A leaf utility that any layer may
 * use; depends on nothing in the server.
 */
package io.blockscope.server.config;
