/**
 * Owns cells and their KeyValue encoding: on-heap cells, offheap cells that serve components
 * straight from a ByteBuff, their comparator, and the getXxxArray copy fallback that the agent
 * counts. May depend on buffer only.
 */
package io.blockscope.server.cell;
