package io.blockscope.agent.instrument;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Block-get only: whether a hit is a checkout the reader must give back: the profile's "checkout" value, or a constant. Read only on a hit, so it may dereference the returned block. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
@interface ProbeCheckout {}
