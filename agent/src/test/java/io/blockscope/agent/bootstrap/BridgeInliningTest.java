package io.blockscope.agent.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.InputStream;
import java.util.Set;
import java.util.TreeSet;
import net.bytebuddy.jar.asm.AnnotationVisitor;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.Test;

/**
 * The bridge's class file as the build leaves it: every call into the {@link Sink} sits in a method
 * HotSpot will not inline (a run-time visible {@code @DontInline}, which it reads from the class file
 * of a bootstrap-loader class), and the entry points advice calls carry no such annotation. A sink
 * call added to an entry point, or a build that drops the annotation, fails here.
 */
class BridgeInliningTest {

    private static final String DONT_INLINE = "Ljdk/internal/vm/annotation/DontInline;";
    private static final String SINK = Sink.class.getName().replace('.', '/');

    @Test
    void everySinkCallIsOutOfLineAndNoEntryPointIs() throws IOException {
        Set<String> callSink = new TreeSet<>();
        Set<String> dontInline = new TreeSet<>();
        read(callSink, dontInline);

        assertEquals(
                Set.of("newInstance", "returnWhileTracking", "sampledCheckout", "sampledCopy", "sampledFallback"),
                callSink,
                "the bridge's methods that call the sink");
        assertEquals(callSink, dontInline, "methods marked @DontInline (run-time visible)");
        for (String entry : Set.of("blockGet", "blockHit", "blockMiss", "blockReturn", "copied", "heapFallback")) {
            assertFalse(dontInline.contains(entry), entry + " is called by inlined advice: it must stay inlinable");
        }
    }

    private static void read(Set<String> callSink, Set<String> dontInline) throws IOException {
        try (InputStream in = Bridge.class.getResourceAsStream("Bridge.class")) {
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
                                            if (owner.equals(SINK)) {
                                                callSink.add(name);
                                            }
                                        }
                                    };
                                }
                            },
                            ClassReader.SKIP_FRAMES);
        }
    }
}
