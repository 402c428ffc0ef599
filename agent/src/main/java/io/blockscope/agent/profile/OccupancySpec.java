package io.blockscope.agent.profile;

/**
 * How an occupancy probe reads a captured cache at scrape time. Each value starts at the captured
 * instance ({@code this}); the size-class values start at one element of {@code sizeClasses} (an
 * array or an {@code Iterable}). Any of them may be null when the server has no such fact.
 */
public record OccupancySpec(
        ValueRef capacity,
        ValueRef used,
        ValueRef wasted,
        ValueRef allocationFailures,
        ValueRef readPathMode,
        ValueRef sizeClasses,
        ValueRef itemSize,
        ValueRef usedSlots,
        ValueRef freeSlots,
        ValueRef usedBytes,
        ValueRef freeBytes) {}
