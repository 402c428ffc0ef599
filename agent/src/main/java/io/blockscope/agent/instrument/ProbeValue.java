package io.blockscope.agent.instrument;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** The value the profile names for this probe (block, byte count or instance), compiled into bytecode. Bound per probe with {@code Advice.withCustomMapping()}. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
@interface ProbeValue {}
