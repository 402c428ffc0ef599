/**
 * Owns the diagnostics build's probe switch: an MBean that reinstalls probe subsets and pauses
 * recording, for overhead measurements. Only blockscope-agent-diagnostics.jar carries this package;
 * the production jar leaves it out (agent/pom.xml), and AgentJarIT checks that it does.
 */
package io.blockscope.agent.diagnostics;
