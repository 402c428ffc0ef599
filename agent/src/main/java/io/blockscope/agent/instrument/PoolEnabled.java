package io.blockscope.agent.instrument;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Heap-fallback only: whether the allocator pools at all: the profile's pool.pooled value, or the constant true. Bound per probe with {@code Advice.withCustomMapping()}. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
@interface PoolEnabled {}
