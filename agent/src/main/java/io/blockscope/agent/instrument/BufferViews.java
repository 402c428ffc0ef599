package io.blockscope.agent.instrument;

import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.util.Map;
import java.util.Set;

/**
 * The JDK's link from a view of a direct buffer ({@code duplicate()}, {@code slice()}) to the buffer
 * it was made from: {@code DirectByteBuffer.att}, set on every view to the allocated buffer (null on
 * that buffer itself). HBase's blocks keep views of the buffers its pool handed out, and only those
 * are known to the pool probes. {@code java.nio} is not open to the agent: it opens it to its own
 * module (what a javaagent may do, {@link Instrumentation#redefineModule}), once, at start-up.
 */
public final class BufferViews {

    private BufferViews() {}

    /**
     * A getter {@code (Object)Object} of a direct buffer's origin.
     *
     * @throws ReflectiveOperationException when this JDK keeps it otherwise
     */
    public static MethodHandle origin(Instrumentation instrumentation) throws ReflectiveOperationException {
        Class<?> direct = Class.forName("java.nio.DirectByteBuffer");
        Module agent = BufferViews.class.getModule();
        if (!direct.getModule().isOpen("java.nio", agent)) {
            instrumentation.redefineModule(
                    direct.getModule(), Set.of(), Map.of(), Map.of("java.nio", Set.of(agent)), Set.of(), Map.of());
        }
        return MethodHandles.privateLookupIn(direct, MethodHandles.lookup()).findGetter(direct, "att", Object.class);
    }
}
