package io.blockscope.agent.bootstrap;

import jdk.internal.vm.annotation.DontInline;

/**
 * Copies onto the heap, the copy doors they happen inside, and the receivers watched calls name:
 * counts every copy under its component, attributes the {@link Bridge#copySampler sampled} ones to
 * a call site through the {@link Sink} (out of line, see {@link Bridge}), and keeps the thread's
 * call slot those sites are named from.
 */
public final class Copies {

    /** In the call slot: the receiver's class of the innermost call a receiver probe watches ... */
    public static final int RECEIVER = 0;
    /** ... and that call's method name. */
    public static final int RECEIVER_METHOD = 1;
    /** The receiver's class of the innermost copy door that names its receiver (a comparator). */
    public static final int DOOR_RECEIVER = 2;
    /** The component (an {@code Integer}) of the outermost copy door in progress; null outside doors. */
    public static final int DOOR_COMPONENT = 3;

    static final int CALL_SLOT_LENGTH = 4;

    /**
     * A door's component at or above this is a copy by design, of operation {@code component -
     * DESIGNED_DOOR} (kept below 128, so the boxed value is one of {@code Integer}'s cached ones).
     */
    public static final int DESIGNED_DOOR = 100;

    private Copies() {}

    /** A copy of {@code bytes} bytes of component {@code component} onto the heap. */
    public static void copied(int probe, int component, long bytes) {
        CounterRows.addCopy(
                Counters.COPIES[component].column(), 1, Counters.COPY_BYTES[component].column(), bytes, component);
        ByteSampler sampler = Bridge.copySampler;
        long calls = sampler.draw(bytes);
        if (calls != 0) {
            sampledCopy(probe, component, bytes, calls, sampler.estimatedBytes(bytes, calls));
        }
    }

    @DontInline
    private static void sampledCopy(int probe, int component, long bytes, long calls, long estimatedBytes) {
        Bridge.sink.copy(probe, component, bytes, calls, estimatedBytes);
    }

    /**
     * Bytes moved onto the heap by a primitive that copies for cells and for everything else alike
     * (HBase's {@code ByteBufferUtils.copyFromBufferToArray}): a cell copy only inside a copy door,
     * counted once under the outermost door's component however deep the door's helpers nest, or,
     * inside a door by design, under its operation (never sampled to a site: the operation names
     * it); a copy outside every door (an RPC stream, a block header) is not a cell copy.
     */
    public static void copiedInDoor(int probe, long bytes) {
        Object door = CounterRows.callSlot()[DOOR_COMPONENT];
        if (door != null) {
            int component = (Integer) door;
            if (component < DESIGNED_DOOR) {
                copied(probe, component, bytes);
            } else {
                int operation = component - DESIGNED_DOOR;
                Counter.add(Counters.DESIGNED_COPIES[operation], 1, Counters.DESIGNED_COPY_BYTES[operation], bytes);
            }
        }
    }

    /**
     * This thread's call slot: what the watched calls in progress on this thread are ({@link
     * #RECEIVER} to {@link #DOOR_COMPONENT}). Advice saves what it overwrites in locals on entry and
     * puts it back on exit, so nested calls unwind. The slot sits in the thread's counter row (no
     * {@code ThreadLocal} lookup per call), allocated with the row on the thread's first use; nothing
     * after.
     */
    public static Object[] callSlot() {
        return CounterRows.callSlot();
    }

    /** The receiver's class of the innermost watched call, when that call is {@code method}; else null. */
    public static Class<?> receiver(String method) {
        Object[] slot = CounterRows.callSlot();
        return method.equals(slot[RECEIVER_METHOD]) ? (Class<?>) slot[RECEIVER] : null;
    }
}
