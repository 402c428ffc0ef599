package io.blockscope.server.jvm;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * A full-collection reading counts what is held and nothing that is merely waiting to be collected:
 * a dropped direct buffer is gone from it (its cleaner has run), a kept one is in it.
 */
class LiveMemoryTest {

    private static final int MB32 = 32 << 20;

    @Test
    void aDroppedDirectBufferIsNotLiveAndAKeptOneIs() throws Exception {
        ByteBuffer kept = ByteBuffer.allocateDirect(MB32);
        ByteBuffer dropped = ByteBuffer.allocateDirect(MB32);
        dropped.put(0, (byte) 1);
        long before = LiveMemory.directBytes().orElseThrow();
        dropped = null;

        LiveMemory.Reading live = LiveMemory.measure().orElseThrow(() -> new AssertionError("System.gc() ran no GC"));

        assertTrue(live.directBytes() >= MB32, "the kept buffer is live: " + live);
        assertTrue(
                // half the dropped buffer as margin: a leftover thread of another test may allocate meanwhile
                live.directBytes() <= before - MB32 / 2,
                "the dropped buffer was freed before the reading (" + before + " before): " + live);
        assertTrue(live.heapBytes() > 0, live.toString());
        Reference.reachabilityFence(kept);
    }
}
