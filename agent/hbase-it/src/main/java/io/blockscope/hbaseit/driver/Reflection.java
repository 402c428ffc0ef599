package io.blockscope.hbaseit.driver;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/** Access to the package-private HBase members the drivers read (statistics, cache internals). */
final class Reflection {

    private Reflection() {}

    /** The first method named {@code name} with {@code arity} parameters, declared by the type or a superclass. */
    static Method method(Class<?> type, String name, int arity) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                if (m.getName().equals(name) && m.getParameterCount() == arity) {
                    m.setAccessible(true);
                    return m;
                }
            }
        }
        throw new IllegalStateException(type.getName() + " has no method " + name + " with " + arity + " parameters");
    }

    static Object invoke(Method method, Object target, Object... args) {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(method + " failed", e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(method + " not accessible", e);
        }
    }
}
