/**
 * Owns PerformanceEvaluation: workloads, in-process and RPC targets, measurement and reports.
 * May depend on rpc, region and everything below them.
 */
package io.blockscope.server.pe;
