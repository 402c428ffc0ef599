package io.blockscope.agent.record;

import io.blockscope.agent.bootstrap.Context;
import io.blockscope.exporter.Log;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * Reads a call's user name by a profile's path ({@code user.getShortName()}: field reads and
 * no-argument calls), reflectively, because the call's declared type (HBase's {@code RpcCall}) does
 * not have the field its class does ({@code ServerCall.user}). Once per RPC call, not per cell: each
 * step's handle is cached for the last class it saw (one class in practice), so a call costs a few
 * handle invocations and allocates nothing. A step that cannot be resolved turns the reader off
 * (users are then {@code (none)}), with one warning.
 */
public final class CallUsers implements Context.UserNames {

    private static final MethodType GETTER = MethodType.methodType(Object.class, Object.class);

    private final String[] names;
    private final boolean[] methods;
    /** Per step: the last class resolved and its handle (immutable pairs, so racy reads are safe). */
    private final Resolved[] cache;

    private volatile String failure;

    public CallUsers(String path) {
        String[] steps = path.split("\\.");
        names = new String[steps.length];
        methods = new boolean[steps.length];
        cache = new Resolved[steps.length];
        for (int i = 0; i < steps.length; i++) {
            methods[i] = steps[i].endsWith("()");
            names[i] = methods[i] ? steps[i].substring(0, steps[i].length() - 2) : steps[i];
        }
    }

    private static final class Resolved {
        final Class<?> type;
        final MethodHandle handle;

        Resolved(Class<?> type, MethodHandle handle) {
            this.type = type;
            this.handle = handle;
        }
    }

    @Override
    public Object name(Object call) {
        if (failure != null) {
            return null;
        }
        Object value = call;
        try {
            for (int i = 0; i < names.length && value != null; i++) {
                Resolved step = cache[i];
                if (step == null || step.type != value.getClass()) {
                    step = resolve(i, value.getClass());
                    cache[i] = step;
                }
                value = (Object) step.handle.invokeExact(value);
            }
        } catch (Throwable e) {
            failure = "cannot read the call's user by '" + String.join(".", names) + "': " + e;
            Log.warnOnce("call-users", failure + "; copies count under user (none)", null);
            return null;
        }
        return value instanceof String ? value : null;
    }

    /** Why users are not read, or null. */
    public String failure() {
        return failure;
    }

    private Resolved resolve(int step, Class<?> type) throws ReflectiveOperationException {
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        if (methods[step]) {
            for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                for (Method m : c.getDeclaredMethods()) {
                    if (m.getName().equals(names[step])
                            && m.getParameterCount() == 0
                            && !Modifier.isStatic(m.getModifiers())) {
                        m.setAccessible(true);
                        return new Resolved(type, lookup.unreflect(m).asType(GETTER));
                    }
                }
            }
            throw new NoSuchMethodException(type.getName() + "." + names[step] + "()");
        }
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (f.getName().equals(names[step]) && !Modifier.isStatic(f.getModifiers())) {
                    f.setAccessible(true);
                    return new Resolved(type, lookup.unreflectGetter(f).asType(GETTER));
                }
            }
        }
        throw new NoSuchFieldException(type.getName() + "." + names[step]);
    }
}
