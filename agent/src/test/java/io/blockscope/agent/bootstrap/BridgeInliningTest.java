package io.blockscope.agent.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
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
 * The bridge's class files (its entry points' classes, the sampler) as the build leaves them: what inlined advice must not carry sits in
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
        assertOutOfLine(
                Checkouts.class,
                Set.of("returnWhileTracking", "sampledCheckout"),
                Set.of("blockGet", "blockHit", "blockMiss", "blockReturn"));
        assertOutOfLine(Copies.class, Set.of("sampledCopy"), Set.of("copied", "copiedInDoor"));
        assertOutOfLine(Instances.class, Set.of("newInstance", "sampledFallback"), Set.of("instance", "heapFallback"));
        for (Class<?> type : List.of(Bridge.class, ByteSampler.class, AdviceErrors.class)) {
            assertOutOfLine(type, Set.of(), Set.of());
        }
    }

    /**
     * The sampler's draw is inlined into the copy and fallback entry points: it must stay a small
     * method with no sink call and no annotation that keeps it out of line.
     */
    @Test
    void theSamplersDrawIsInlinable() throws IOException {
        Set<String> dontInline = new TreeSet<>();
        Set<String> drawRandom = new TreeSet<>();
        read(ByteSampler.class, (owner, method) -> owner.equals(RANDOM), drawRandom, dontInline);
        assertEquals(Set.of("draw"), drawRandom, "the sampler's methods that draw a random number");
        assertEquals(Set.of(), dontInline);
    }

    /** The methods of {@code type} that call the sink are exactly {@code sinkCallers}, each @DontInline. */
    private static void assertOutOfLine(Class<?> type, Set<String> sinkCallers, Set<String> entryPoints)
            throws IOException {
        Set<String> callSink = new TreeSet<>();
        Set<String> dontInline = new TreeSet<>();
        read(type, (owner, method) -> owner.equals(SINK), callSink, dontInline);
        assertEquals(sinkCallers, callSink, type.getSimpleName() + "'s methods that call the sink");
        assertEquals(callSink, dontInline, type.getSimpleName() + "'s methods marked @DontInline (run-time visible)");
        for (String entry : entryPoints) {
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
