/**
 * Owns server-side scan filters and how a request names one. May depend on cell and buffer.
 */
package io.blockscope.server.filter;
