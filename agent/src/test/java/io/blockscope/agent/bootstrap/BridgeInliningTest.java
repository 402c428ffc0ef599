package io.blockscope.agent.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiPredicate;
import net.bytebuddy.jar.asm.AnnotationVisitor;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.Test;

/**
 * The bridge's class files as the build leaves them: what inlined advice must not carry sits in
 * methods HotSpot will not inline (a run-time visible {@code @DontInline}, which it reads from the
 * class file of a bootstrap-loader class), and the entry points advice calls carry no such
 * annotation. A sink call or a random draw added to an inlined path, or a build that drops the
 * annotation, fails here.
 */
class BridgeInliningTest {

    private static final String DONT_INLINE = "Ljdk/internal/vm/annotation/DontInline;";
    private static final String SINK = Sink.class.getName().replace('.', '/');
    private static final String COUNTER_ROWS = CounterRows.class.getName().replace('.', '/');
    private static final String RANDOM = "java/util/concurrent/ThreadLocalRandom";

    @Test
    void everySinkCallIsOutOfLineAndNoEntryPointIs() throws IOException {
        Set<String> callSink = new TreeSet<>();
        Set<String> dontInline = new TreeSet<>();
        read(Bridge.class, (owner, method) -> owner.equals(SINK), callSink, dontInline);

        assertEquals(
                Set.of("newInstance", "returnWhileTracking", "sampledCheckout", "sampledCopy", "sampledFallback"),
                callSink,
                "the bridge's methods that call the sink");
        assertEquals(callSink, dontInline, "methods marked @DontInline (run-time visible)");
        for (String entry : Set.of("blockGet", "blockHit", "blockMiss", "blockReturn", "copied", "heapFallback")) {
            assertFalse(dontInline.contains(entry), entry + " is called by inlined advice: it must stay inlinable");
        }
    }

    /**
     * A checkout's count and countdown are inlined into each lookup site; drawing the next
     * countdown (a random draw and two logarithms) happens once in a thousand calls and must stay
     * out of line, or C2 compiles it into every instrumented {@code getBlock}.
     */
    @Test
    void theCountdownsRarePathsAreOutOfLine() throws IOException {
        Set<String> drawCountdown = new TreeSet<>();
        Set<String> dontInline = new TreeSet<>();
        read(
                CounterRows.class,
                (owner, method) -> owner.equals(COUNTER_ROWS) && method.equals("skipsBeforeSample"),
                drawCountdown,
                dontInline);
        Set<String> drawRandom = new TreeSet<>();
        read(CounterRows.class, (owner, method) -> owner.equals(RANDOM), drawRandom, new TreeSet<>());

        assertEquals(Set.of("countdownEnded"), drawCountdown, "the counter rows' methods that draw a countdown");
        assertEquals(
                Set.of("incrementAndSampleWithoutRow", "skipsBeforeSample"),
                drawRandom,
                "the counter rows' methods that draw a random number");
        assertTrue(
                dontInline.containsAll(Set.of("countdownEnded", "incrementAndSampleWithoutRow")),
                "the rare paths are @DontInline, found: " + dontInline);
        for (String entry : Set.of("add", "incrementAndSample")) {
            assertFalse(dontInline.contains(entry), entry + " is inlined into advice: it must stay inlinable");
        }
    }

    /** Collects the methods of {@code type} that make a call {@code call} accepts, and the @DontInline ones. */
    private static void read(
            Class<?> type, BiPredicate<String, String> call, Set<String> callers, Set<String> dontInline)
            throws IOException {
        try (InputStream in = type.getResourceAsStream(type.getSimpleName() + ".class")) {
            new ClassReader(in.readAllBytes())
                    .accept(
                            new ClassVisitor(Opcodes.ASM9) {
                                @Override
                                public MethodVisitor visitMethod(
                                        int access,
                                        String name,
                                        String descriptor,
                                        String signature,
                                        String[] exceptions) {
                                    return new MethodVisitor(Opcodes.ASM9) {
                                        @Override
                                        public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
                                            if (annotation.equals(DONT_INLINE) && visible) {
                                                dontInline.add(name);
                                            }
                                            return null;
                                        }

                                        @Override
                                        public void visitMethodInsn(
                                                int opcode,
                                                String owner,
                                                String method,
                                                String methodDescriptor,
                                                boolean itf) {
                                            if (call.test(owner, method)) {
                                                callers.add(name);
                                            }
                                        }
                                    };
                                }
                            },
                            ClassReader.SKIP_FRAMES);
        }
    }
}
