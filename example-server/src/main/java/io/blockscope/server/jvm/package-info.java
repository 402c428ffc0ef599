/**
 * Owns readings of the JVM itself (GC snapshots, per-thread allocation). A leaf utility that any
 * layer may use; depends on nothing in the server.
 */
package io.blockscope.server.jvm;
