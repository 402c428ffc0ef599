/**
 * Owns the agent's start-up: premain/agentmain after the Java 8 entry hands over, options and
 * profile checked before anything starts, the bootstrap jar injected, probes installed and
 * metrics registered, every failure logged once while the host goes on. May depend on every
 * agent package and on the exporter.
 */
package io.blockscope.agent;
