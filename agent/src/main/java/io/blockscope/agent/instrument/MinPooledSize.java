package io.blockscope.agent.instrument;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Heap-fallback only: the smallest request the allocator's pool serves: the profile's pool.minPooledSize value, or the constant 0. Bound per probe with {@code Advice.withCustomMapping()}. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
@interface MinPooledSize {}
