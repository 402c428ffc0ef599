/**
 * Owns what instrumented code calls: the Bridge, the lock-free counters and checkout table.
 * Injected into the bootstrap class loader, so it depends on nothing but java.base (LayeringTest
 * keeps it so).
 */
package io.blockscope.agent.bootstrap;
