/**
 * Owns the agent's options: parsing the -javaagent argument, file and environment, with errors
 * that say what was wrong and how to fix it. A leaf: depends on nothing else of blockscope.
 */
package io.blockscope.agent.config;
