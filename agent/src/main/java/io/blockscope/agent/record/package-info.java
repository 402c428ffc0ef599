/**
 * Owns what happens behind the bridge: checkouts tracked for leaks, call sites resolved and
 * bounded, copy events. May depend on profile and bootstrap.
 */
package io.blockscope.agent.record;
