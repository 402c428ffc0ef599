/**
 * Owns the classes the JVM loads first (Premain-Class, Agent-Class, Main-Class): Java 8 bytecode
 * that checks the runtime and hands over by name, or prints one line and leaves the host alone.
 * Depends on nothing else of blockscope.
 */
package io.blockscope.agent.entry;
