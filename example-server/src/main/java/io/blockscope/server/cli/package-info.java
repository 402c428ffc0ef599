/**
 * Owns the command line (serve, load, pe). The top layer: nothing in the server depends on it.
 */
package io.blockscope.server.cli;
