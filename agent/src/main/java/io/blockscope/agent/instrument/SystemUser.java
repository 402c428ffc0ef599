package io.blockscope.agent.instrument;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** A system context probe's fixed user (index into {@code Context.SYSTEM_USERS}), from the profile. */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
@interface SystemUser {}
