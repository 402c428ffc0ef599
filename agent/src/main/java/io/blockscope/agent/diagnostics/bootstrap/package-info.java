/**
 * Owns the recording gate the diagnostics build's advice reads. Injected into the bootstrap class
 * loader from its own nested jar, like the bridge, so it depends on nothing but java.base.
 */
package io.blockscope.agent.diagnostics.bootstrap;
