package io.blockscope.agent.instrument;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The transformer registered in {@code premain}, before ByteBuddy's exists: only a possible target
 * waits for it, and what waited is transformed by it; anything else never waits.
 */
class DeferredTransformerTest {

    private static final String TARGET = "com/acme/Cache";
    private static final byte[] ORIGINAL = {1};
    private static final byte[] TRANSFORMED = {2};

    private final ExecutorService loaders = Executors.newCachedThreadPool();
    private final ClassLoader loader = getClass().getClassLoader();

    @AfterEach
    void stop() {
        loaders.shutdownNow();
    }

    @Test
    void aTargetLoadingBeforeByteBuddyIsThereWaitsForItAndIsTransformedByIt() throws Exception {
        DeferredTransformer front = front();
        Recording byteBuddy = new Recording();
        Future<byte[]> load = loaders.submit(() -> front.transform(loader, TARGET, null, null, ORIGINAL));
        awaitWaiting(load);
        assertTrue(!load.isDone(), "the target's load waits while the agent starts");
        assertTrue(byteBuddy.seen.isEmpty());

        front.instrumentation(null).addTransformer(byteBuddy, true);
        assertArrayEquals(TRANSFORMED, load.get(60, TimeUnit.SECONDS));
        assertEquals(List.of(TARGET), byteBuddy.seen);
        assertFalse(front.targetLoadedEarly(), "no instance of it can predate its probes");
    }

    @Test
    void otherClassesNeverWaitAndNeverReachByteBuddy() throws Exception {
        DeferredTransformer front = front();
        Future<byte[]> other = loaders.submit(() -> front.transform(loader, "com/acme/Other", null, null, ORIGINAL));
        Future<byte[]> boot = loaders.submit(() -> front.transform(null, TARGET, null, null, ORIGINAL));
        assertNull(other.get(60, TimeUnit.SECONDS), "not a target: loads unchanged at once");
        assertNull(boot.get(60, TimeUnit.SECONDS), "the bootstrap loader's classes are never targets");

        Recording byteBuddy = new Recording();
        front.instrumentation(null).addTransformer(byteBuddy, true);
        assertNull(front.transform(loader, "com/acme/Other", null, null, ORIGINAL));
        assertArrayEquals(TRANSFORMED, front.transform(loader, TARGET, null, null, ORIGINAL));
        assertEquals(List.of(TARGET), byteBuddy.seen);
    }

    @Test
    void theStartThreadItselfAndRetransformationsNeverWait() throws Exception {
        DeferredTransformer front = front();
        Future<byte[]> starter = loaders.submit(() -> {
            front.startedBy(Thread.currentThread());
            return front.transform(loader, TARGET, null, null, ORIGINAL);
        });
        assertNull(starter.get(60, TimeUnit.SECONDS), "ByteBuddy's scan of loaded classes instruments it later");
        assertTrue(front.targetLoadedEarly(), "so instances of it may be built before its probes are in");
        Future<byte[]> retransform =
                loaders.submit(() -> front.transform(loader, TARGET, Object.class, null, ORIGINAL));
        assertNull(retransform.get(60, TimeUnit.SECONDS));
    }

    @Test
    void aFailedStartReleasesWaitingTargetsUnchanged() throws Exception {
        DeferredTransformer front = front();
        Future<byte[]> load = loaders.submit(() -> front.transform(loader, TARGET, null, null, ORIGINAL));
        awaitWaiting(load);
        front.abandon();
        assertNull(load.get(60, TimeUnit.SECONDS));
        assertTrue(front.targetLoadedEarly(), "released unchanged");
        assertNull(front.transform(loader, TARGET, null, null, ORIGINAL), "and later ones load at once");
    }

    @Test
    void byteBuddysResetRemovesItsTransformer() throws Exception {
        DeferredTransformer front = front();
        Recording byteBuddy = new Recording();
        front.instrumentation(null).addTransformer(byteBuddy, true);
        assertTrue(front.instrumentation(null).removeTransformer(byteBuddy));
        assertNull(front.transform(loader, TARGET, null, null, ORIGINAL));
        assertTrue(byteBuddy.seen.isEmpty());
    }

    private static DeferredTransformer front() {
        return new DeferredTransformer(new TargetFilter(Set.of(TARGET), Set.of(), false));
    }

    /** Until a loader thread waits inside the transformer (or the load ended, which the caller checks). */
    private void awaitWaiting(Future<byte[]> load) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!load.isDone() && System.nanoTime() < deadline && !aLoaderWaits()) {
            Thread.sleep(5);
        }
    }

    private static boolean aLoaderWaits() {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().startsWith("pool-")
                        && (t.getState() == Thread.State.TIMED_WAITING || t.getState() == Thread.State.WAITING)
                        && List.of(t.getStackTrace()).stream()
                                .anyMatch(f -> f.getMethodName().equals("awaitDelegate")));
    }

    /** ByteBuddy's transformer, as far as the front one can tell. */
    private static final class Recording implements ClassFileTransformer {
        final List<String> seen = new CopyOnWriteArrayList<>();

        @Override
        public byte[] transform(
                ClassLoader loader, String name, Class<?> redefined, ProtectionDomain domain, byte[] classFile) {
            seen.add(name);
            assertSame(ORIGINAL, classFile);
            return TRANSFORMED;
        }
    }
}
