package io.blockscope.agent.instrument;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Copy door only: whether the door names the site of copies inside it after its receiver's class (a constant). */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
@interface DoorNamesReceiver {}
