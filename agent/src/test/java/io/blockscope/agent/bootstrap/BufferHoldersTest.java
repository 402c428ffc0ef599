package io.blockscope.agent.bootstrap;

import static io.blockscope.agent.bootstrap.HeldBuffersTest.AGE;
import static io.blockscope.agent.bootstrap.HeldBuffersTest.SECOND;
import static io.blockscope.agent.bootstrap.HeldBuffersTest.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.util.IdentityHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The shapes of HBase's blocks and buffers, with the JDK's view-to-origin link played by a map. */
class BufferHoldersTest {

    /** A view's origin, as {@code DirectByteBuffer.att} gives it (the real one is read in a RegionServer). */
    static final Map<Object, Object> ORIGINS = new IdentityHashMap<>();

    static Object origin(Object view) {
        return ORIGINS.get(view);
    }

    abstract static class Buff {}

    static final class Single extends Buff {
        private final ByteBuffer buf;

        Single(ByteBuffer buf) {
            this.buf = buf;
        }
    }

    static final class Multi extends Buff {
        @SuppressWarnings("unused")
        private final ByteBuffer curItem;

        private final ByteBuffer[] items;

        Multi(ByteBuffer... items) {
            this.curItem = items[0];
            this.items = items;
        }
    }

    /** 2.4.18+ names the field bufWithoutChecksum; 2.3 to 2.4.17 buf. */
    static class Block {
        private final Buff bufWithoutChecksum;

        Block(Buff buff) {
            this.bufWithoutChecksum = buff;
        }
    }

    static final class SharedBlock extends Block {
        SharedBlock(Buff buff) {
            super(buff);
        }
    }

    static final class OldBlock {
        private final Buff buf;

        OldBlock(Buff buff) {
            this.buf = buff;
        }
    }

    static final class NoBufferBlock {}

    private static ByteBuffer pooled() {
        return ByteBuffer.allocateDirect(64);
    }

    /** A view of {@code pooled}, as HFileBlock keeps it (onDiskBlock.duplicate()). */
    private static ByteBuffer view(ByteBuffer pooled) {
        ByteBuffer view = pooled.duplicate();
        ORIGINS.put(view, pooled);
        return view;
    }

    private static void configure() throws ReflectiveOperationException {
        MethodHandle origin = MethodHandles.lookup()
                .findStatic(BufferHoldersTest.class, "origin", MethodType.methodType(Object.class, Object.class));
        BufferHolders.configure(new String[] {"bufWithoutChecksum", "buf"}, origin);
    }

    @Test
    void aTouchedBlockRestartsTheAgeOfThePoolBuffersItIsAViewOf() throws Throwable {
        configure();
        HeldBuffers held = new HeldBuffers(64);
        ByteBuffer one = pooled();
        ByteBuffer a = pooled();
        ByteBuffer b = pooled();
        ByteBuffer other = pooled();
        for (ByteBuffer buffer : new ByteBuffer[] {one, a, b, other}) {
            held.taken(buffer, T0);
        }
        Block single = new SharedBlock(new Single(view(one)));
        OldBlock multi = new OldBlock(new Multi(view(a), view(b)));
        BufferHolders.touch(single, held, T0 + 50 * SECOND);
        BufferHolders.touch(multi, held, T0 + 50 * SECOND);
        assertEquals(1, held.olderThan(T0 + 100 * SECOND, AGE), "only the buffer no block stands on");
        held.given(other);
        assertEquals(0, held.olderThan(T0 + 100 * SECOND, AGE));
        assertEquals(3, held.olderThan(T0 + 111 * SECOND, AGE), "not touched since 50 s");
    }

    @Test
    void aBlockOnABufferThePoolDidNotLendTouchesNothing() throws Throwable {
        configure();
        HeldBuffers held = new HeldBuffers(64);
        ByteBuffer stuck = pooled();
        held.taken(stuck, T0);
        BufferHolders.touch(new Block(new Single(ByteBuffer.allocate(64))), held, T0 + 100 * SECOND); // heap
        BufferHolders.touch(new Block(new Single(pooled())), held, T0 + 100 * SECOND); // a cache's own
        BufferHolders.touch(new Block(null), held, T0 + 100 * SECOND);
        assertEquals(1, held.olderThan(T0 + 100 * SECOND, AGE));
    }

    @Test
    void aHolderWithoutTheFieldFailsOnceThenTouchesNothing() throws Throwable {
        configure();
        HeldBuffers held = new HeldBuffers(64);
        assertThrows(IllegalStateException.class, () -> BufferHolders.touch(new NoBufferBlock(), held, T0));
        BufferHolders.touch(new NoBufferBlock(), held, T0); // resolved to nothing: quiet from now on
        assertEquals(0, held.held());
    }
}
