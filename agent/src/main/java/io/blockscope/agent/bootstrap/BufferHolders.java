package io.blockscope.agent.bootstrap;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;

/**
 * Reaches the pool buffers a holder lives in, to {@link HeldBuffers#touched touch} them: HBase's
 * {@code HFileBlock} keeps a {@code ByteBuff} (its field named by the profile), which keeps one
 * {@code ByteBuffer} ({@code SingleByteBuff}) or an array of them ({@code MultiByteBuff}), each a
 * view (a {@code duplicate()} or {@code slice()}) of the buffer the pool handed out. The JDK keeps
 * that buffer in every view of it (its attachment), which the agent reads through {@link #root}.
 *
 * <p>Fields are read through method handles resolved once per class and kept in small copy-on-write
 * tables: a call reads fields and compares classes, allocating nothing and taking no lock. A class
 * without the fields (another release) is resolved to nothing, once; that first call throws, so
 * the advice's handler counts and the agent logs it once, and later calls touch nothing.
 */
public final class BufferHolders {

    /** Classes each table keeps at most: a release has a few block classes and two buffer classes. */
    static final int MAX_CLASSES = 8;

    private static final MethodType GETTER = MethodType.methodType(Object.class, Object.class);

    /** A class's getter: the holder's buffer, or a buffer class's {@code ByteBuffer} or array. */
    private static final class Resolved {
        final Class<?> type;
        /** Null: the class has no such field; nothing is touched through it. */
        final MethodHandle getter;

        final boolean array;

        Resolved(Class<?> type, MethodHandle getter, boolean array) {
            this.type = type;
            this.getter = getter;
            this.array = array;
        }
    }

    /** Off until {@link #configure}d: the agent found no way to a view's origin, or no probe touches. */
    private static volatile boolean on;

    private static volatile String[] holderFields = new String[0];
    /** {@code (Object)Object}: the buffer a direct view was made from (null if none); null: no views. */
    private static volatile MethodHandle root;

    private static volatile Resolved[] holders = new Resolved[0];
    private static volatile Resolved[] buffers = new Resolved[0];

    private BufferHolders() {}

    /**
     * Called once, before the probes are installed: {@code fields} are the holder's fields that may
     * keep its buffer (the first one a class has counts), {@code root} gives a direct buffer's
     * origin (null: buffers are touched as found).
     */
    public static synchronized void configure(String[] fields, MethodHandle rootOfView) {
        holderFields = fields.clone();
        root = rootOfView == null ? null : rootOfView.asType(GETTER);
        holders = new Resolved[0];
        buffers = new Resolved[0];
        on = true;
    }

    /** Touches every buffer {@code holder} lives in, in {@code held}, at {@code nanoTime}. */
    public static void touch(Object holder, HeldBuffers held, long nanoTime) throws Throwable {
        if (!on) {
            return;
        }
        Resolved h = find(holders, holder.getClass());
        if (h == null) {
            h = resolveHolder(holder.getClass());
        }
        if (h.getter == null) {
            return;
        }
        Object buffer = (Object) h.getter.invokeExact(holder);
        if (buffer == null) {
            return;
        }
        Resolved b = find(buffers, buffer.getClass());
        if (b == null) {
            b = resolveBuffer(buffer.getClass());
        }
        if (b.getter == null) {
            return;
        }
        Object items = (Object) b.getter.invokeExact(buffer);
        if (b.array) {
            ByteBuffer[] array = (ByteBuffer[]) items;
            if (array != null) {
                for (ByteBuffer item : array) {
                    touchOne(item, held, nanoTime);
                }
            }
        } else {
            touchOne((ByteBuffer) items, held, nanoTime);
        }
    }

    private static void touchOne(ByteBuffer buffer, HeldBuffers held, long nanoTime) throws Throwable {
        if (buffer == null) {
            return;
        }
        Object origin = buffer;
        MethodHandle r = root;
        if (r != null && buffer.isDirect()) {
            Object attached = (Object) r.invokeExact((Object) buffer);
            if (attached != null) {
                origin = attached;
            }
        }
        held.touched(origin, nanoTime);
    }

    private static Resolved find(Resolved[] table, Class<?> type) {
        for (Resolved r : table) {
            if (r.type == type) {
                return r;
            }
        }
        return null;
    }

    private static synchronized Resolved resolveHolder(Class<?> type) {
        Resolved known = find(holders, type);
        if (known != null || holders.length >= MAX_CLASSES) {
            return known != null ? known : new Resolved(type, null, false); // full: that class is not touched
        }
        Field field = null;
        for (String name : holderFields) {
            field = field(type, name, null);
            if (field != null) {
                break;
            }
        }
        Resolved resolved = new Resolved(type, field == null ? null : getter(field), false);
        holders = added(holders, resolved);
        if (resolved.getter == null) {
            throw new IllegalStateException(type.getName() + " has none (readable) of of the fields "
                    + String.join(", ", holderFields) + ": its buffers are not touched");
        }
        return resolved;
    }

    private static synchronized Resolved resolveBuffer(Class<?> type) {
        Resolved known = find(buffers, type);
        if (known != null || buffers.length >= MAX_CLASSES) {
            return known != null ? known : new Resolved(type, null, false);
        }
        // an array of buffers first: a multi-buffer class may also keep its current one in a field
        Field field = field(type, null, ByteBuffer[].class);
        boolean array = field != null;
        if (field == null) {
            field = field(type, null, ByteBuffer.class);
        }
        Resolved resolved = new Resolved(type, field == null ? null : getter(field), array);
        buffers = added(buffers, resolved);
        if (resolved.getter == null) {
            throw new IllegalStateException(
                    type.getName() + " keeps no readable ByteBuffer: its buffers are not touched");
        }
        return resolved;
    }

    /** The instance field of {@code type} or a superclass named {@code name}, or else of type {@code fieldType}. */
    private static Field field(Class<?> type, String name, Class<?> fieldType) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                if (name != null ? f.getName().equals(name) : f.getType() == fieldType) {
                    return f;
                }
            }
        }
        return null;
    }

    private static MethodHandle getter(Field field) {
        try {
            field.setAccessible(true);
            return MethodHandles.lookup().unreflectGetter(field).asType(GETTER);
        } catch (RuntimeException | IllegalAccessException e) {
            return null;
        }
    }

    private static Resolved[] added(Resolved[] table, Resolved r) {
        Resolved[] bigger = java.util.Arrays.copyOf(table, table.length + 1);
        bigger[table.length] = r;
        return bigger;
    }
}
