/**
 * Owns the spelling of byte sizes and durations in options and flags, for the agent and the example
 * server alike. Depends on the JDK only.
 */
package io.blockscope.units;
