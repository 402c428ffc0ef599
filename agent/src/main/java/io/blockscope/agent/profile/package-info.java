/**
 * Owns target profiles: the JSON description of a cache's classes and methods and its parser.
 * May depend on bootstrap only (for the ids probes share).
 */
package io.blockscope.agent.profile;
