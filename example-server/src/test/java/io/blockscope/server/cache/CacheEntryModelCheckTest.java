package io.blockscope.server.cache;

import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * Model checks the refcount state machine of {@link CacheEntry}: readers retaining and releasing
 * while the cache evicts, in every interleaving Lincheck's scheduler explores (not just those a
 * stress test happens to hit; HBase shipped such races, HBASE-22422 and HBASE-22480).
 *
 * <p>Each outcome must match some sequential order of the same calls (linearizability), and after
 * every scenario the memory was freed at most once, and only when nobody holds the entry.
 */
public class CacheEntryModelCheckTest {

    private final CacheEntryTest.Entry entry = new CacheEntryTest.Entry(1);
    private final AtomicInteger frees = new AtomicInteger();

    @Operation
    public boolean retain() {
        return entry.tryRetain();
    }

    @Operation
    public String release() {
        try {
            return freeIf(entry.release());
        } catch (IllegalStateException returnedTwice) {
            return "refused";
        }
    }

    @Operation
    public String evict() {
        try {
            return freeIf(entry.dropCacheReference());
        } catch (IllegalStateException evictedTwice) {
            return "refused";
        }
    }

    @Operation
    public int readers() {
        return entry.readers();
    }

    private String freeIf(boolean last) {
        if (last) {
            frees.incrementAndGet();
            return "freed";
        }
        return "kept";
    }

    @Validate
    public void freedOnceAndNeverWhileHeld() {
        int freed = frees.get();
        if (freed > 1) {
            throw new AssertionError("freed " + freed + " times: " + entry);
        }
        boolean unreferenced = entry.readers() == 0 && !entry.isCached();
        if ((freed == 1) != unreferenced) {
            throw new AssertionError("freed=" + freed + " but " + entry);
        }
    }

    @Test
    void everyInterleavingIsLinearizableAndFreesOnce() {
        LinChecker.check(
                CacheEntryModelCheckTest.class,
                new ModelCheckingOptions()
                        .iterations(15)
                        .invocationsPerIteration(1_000)
                        .threads(3)
                        .actorsPerThread(3)
                        .actorsBefore(2)
                        .actorsAfter(1));
    }
}
