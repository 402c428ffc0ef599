package io.blockscope.agent.metrics;

import io.blockscope.agent.profile.ValueRef;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Evaluates a profile value ({@code this.allocator().indexStatistics()}) reflectively on a captured
 * instance. Scrape time only: the lookups are cached per class, and non-public accessors (HBase's
 * package-private {@code getIndexStatistics()}) are made accessible, which works for classes of
 * the class path (the unnamed module).
 */
final class Accessors {

    private final Map<String, Method> methods = new ConcurrentHashMap<>();
    private final Map<String, Field> fields = new ConcurrentHashMap<>();

    /** The value of {@code ref} on {@code instance} (the ref's {@code this}). */
    Object evaluate(ValueRef ref, Object instance) throws ReflectiveOperationException {
        if (ref.origin() != ValueRef.Origin.THIS) {
            throw new IllegalArgumentException("value '" + ref + "' must start with this");
        }
        Object current = instance;
        for (ValueRef.Step step : ref.steps()) {
            if (current == null) {
                throw new IllegalStateException("value '" + ref + "': null before " + step);
            }
            if (step.arrayLength()) {
                current = Array.getLength(current);
            } else if (step.field()) {
                current = field(current.getClass(), step.name()).get(current);
            } else {
                current = method(current.getClass(), step.name()).invoke(current);
            }
        }
        return current;
    }

    /** {@code ref} as a number, or NaN-free failure. */
    long number(ValueRef ref, Object instance) throws ReflectiveOperationException {
        Object value = evaluate(ref, instance);
        if (value instanceof Number) {
            return ((Number) value).longValue();
        }
        throw new IllegalStateException("value '" + ref + "' is a "
                + (value == null ? "null" : value.getClass().getName()) + ", not a number");
    }

    private Field field(Class<?> type, String name) throws NoSuchFieldException {
        String key = type.getName() + "." + name + "@" + System.identityHashCode(type.getClassLoader());
        Field cached = fields.get(key);
        if (cached != null) {
            return cached;
        }
        for (Class<?> current = type; current != null; current = current.getSuperclass()) {
            for (Field field : current.getDeclaredFields()) {
                if (field.getName().equals(name) && !java.lang.reflect.Modifier.isStatic(field.getModifiers())) {
                    field.setAccessible(true);
                    fields.put(key, field);
                    return field;
                }
            }
        }
        throw new NoSuchFieldException(type.getName() + " has no field " + name);
    }

    private Method method(Class<?> type, String name) throws NoSuchMethodException {
        String key = type.getName() + "#" + name + "@" + System.identityHashCode(type.getClassLoader());
        Method cached = methods.get(key);
        if (cached != null) {
            return cached;
        }
        Method found = find(type, name);
        methods.put(key, found);
        return found;
    }

    private static Method find(Class<?> type, String name) throws NoSuchMethodException {
        try {
            Method method = type.getMethod(name);
            if (method.getDeclaringClass().isInterface()
                    || java.lang.reflect.Modifier.isPublic(
                            method.getDeclaringClass().getModifiers())) {
                return method;
            }
        } catch (NoSuchMethodException e) {
            // maybe not public: look at the declared methods below
        }
        Deque<Class<?>> pending = new ArrayDeque<>();
        Set<Class<?>> seen = new HashSet<>();
        pending.add(type);
        while (!pending.isEmpty()) {
            Class<?> current = pending.poll();
            if (!seen.add(current)) {
                continue;
            }
            for (Method method : current.getDeclaredMethods()) {
                if (method.getName().equals(name) && method.getParameterCount() == 0) {
                    method.setAccessible(true);
                    return method;
                }
            }
            if (current.getSuperclass() != null) {
                pending.add(current.getSuperclass());
            }
            pending.addAll(java.util.List.of(current.getInterfaces()));
        }
        throw new NoSuchMethodException(type.getName() + " has no method " + name + "()");
    }
}
