package io.blockscope.agent.bootstrap;

import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * Model checks the agent's lock-free {@link CheckoutTable}: checkouts, returns and touches of a few
 * blocks racing on their shared probe window (and a scrape marking entries stuck), in the interleavings Lincheck's scheduler explores. Every
 * outcome must match some sequential order of the same calls (so a return never takes a checkout
 * twice, never loses one, and reports the tier it was checked out in), and afterwards the table
 * holds exactly the checkouts not given back.
 */
@Param(name = "block", gen = IntGen.class, conf = "0:2")
public class CheckoutTableModelCheckTest {

    /**
     * Identity hashes of three blocks. The model checker makes identityHashCode its own, so the test
     * names the hashes: 1 and 2 have neighbouring home slots (their probe windows overlap), and
     * 65 shares block 0's home slot in a 64-slot table (same window, different hash).
     */
    private static final int[] HASHES = {1, 2, 65};

    /**
     * The tier of each block. A block object lives in one tier (an L1 block and an L2 block are
     * different objects); with one block in two tiers at once, a return racing both checkouts may
     * take either tier's checkout, which is balanced but not linearizable, and never happens.
     */
    private static final int[] TIERS = {0, 1, 0};

    private final CheckoutTable table = new CheckoutTable(64);

    private final AtomicInteger held = new AtomicInteger();

    @Operation
    public boolean checkOut(@Param(name = "block") int block) {
        boolean added = table.add(HASHES[block], TIERS[block]);
        if (added) {
            held.incrementAndGet();
        }
        return added;
    }

    @Operation
    public int giveBack(@Param(name = "block") int block) {
        int tier = table.remove(HASHES[block]);
        if (tier >= 0) {
            held.decrementAndGet();
        }
        return tier;
    }

    /**
     * A live holder passes by its block (a scanner's shipped()): it re-stamps the block's entry and
     * must neither add nor take a checkout, nor bring back one a racing return took.
     */
    @Operation
    public void touch(@Param(name = "block") int block) {
        table.touched(HASHES[block]);
    }

    /** The scrape side moves the epoch on and marks entries stuck, racing touches of the same entries. */
    @Operation
    public void scrape() {
        table.advance();
        table.stuck(1, 2);
    }

    /**
     * Once the threads are done, the table holds exactly the checkouts not given back: none lost,
     * none counted twice. (size() is a diagnostic sum, not a snapshot, so it is read only here.)
     */
    @Validate
    public void holdsExactlyWhatWasNotGivenBack() {
        if (table.size() != held.get()) {
            throw new AssertionError("table holds " + table.size() + " checkouts, callers hold " + held.get());
        }
    }

    @Test
    void everyInterleavingIsLinearizable() {
        LinChecker.check(
                CheckoutTableModelCheckTest.class,
                new ModelCheckingOptions()
                        .iterations(10)
                        .invocationsPerIteration(1_000)
                        .threads(3)
                        .actorsPerThread(3)
                        .actorsBefore(2)
                        .actorsAfter(1)
                        // size() walks all 64 slots: a long loop, not a spin
                        .loopBound(128));
    }
}
