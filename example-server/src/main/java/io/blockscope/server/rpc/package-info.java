/**
 * Owns the RPC tier: the Jetty handler, request limits, the cell-block wire format, and the rule
 * that blocks are returned only after the response that uses them is written. May depend on
 * region and everything below it.
 */
package io.blockscope.server.rpc;
