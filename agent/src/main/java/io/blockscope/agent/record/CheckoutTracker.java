package io.blockscope.agent.record;

import io.blockscope.agent.bootstrap.Checkouts;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Tracks sampled block checkouts until they are returned, in the manner of Netty's leak detector:
 * each tracked block is held only weakly, so a block the reader drops without returning it is
 * garbage collected and its record comes back through a {@link ReferenceQueue}: a leak. A record
 * older than the configured age is a leak too (a reader that holds on to a block forever).
 *
 * <p>Records sit in a fixed open-addressed table indexed by the block's identity hash, so matching a
 * return costs an identity hash and a few array reads, allocates nothing and takes no lock. When
 * the table has no free slot near a block's hash, that checkout is simply not tracked (counted in
 * {@link #dropped()}): tracking is a sample anyway.
 */
public final class CheckoutTracker {

    /** Why a checkout counts as leaked. */
    public enum Reason {
        GC("gc"),
        AGE("age");

        private final String label;

        Reason(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** Receives ended checkouts: returned ones with their hold time, leaked ones with the reason. */
    public interface Listener {
        void returned(Checkout checkout, long heldNanos);

        void leaked(Checkout checkout, Reason reason);
    }

    /**
     * Where a checkout was taken. Read only when the checkout is reported as a leak, so an origin may
     * put off the costly part (naming frames) until then.
     */
    public interface Origin {
        /** The acquiring call site, {@code Class.method:line}. */
        String site();

        /** The acquiring stack below the agent's own frames, innermost first (empty when not kept). */
        StackTraceElement[] stack();
    }

    /** One tracked checkout. The block itself is only weakly reachable from here. */
    public static final class Checkout extends WeakReference<Object> {
        final int tier;
        final long startNanos;
        final Origin origin;
        /** The table id ({@code Context.tables()}) the taking thread worked for; 0: none. */
        final int table;
        /** The region the taking thread worked on ({@code Context.region()}); null: none. */
        final Object region;

        int slot;
        /** Its index in the tracker's short list of live checkouts, or -1 when it did not fit. */
        int few = -1;

        Checkout(
                Object block,
                ReferenceQueue<Object> queue,
                int tier,
                long startNanos,
                Origin origin,
                int table,
                Object region) {
            super(block, queue);
            this.tier = tier;
            this.startNanos = startNanos;
            this.origin = origin;
            this.table = table;
            this.region = region;
        }

        public int tier() {
            return tier;
        }

        /** The table id the taking thread worked for ({@code Context.tables()}); 0: none. */
        public int table() {
            return table;
        }

        /** The region the taking thread worked on (HBase: its encoded name); null: none. */
        public Object region() {
            return region;
        }

        public String site() {
            return origin.site();
        }

        /** The acquiring stack, innermost first (empty when this checkout kept none). */
        public StackTraceElement[] stack() {
            return origin.stack();
        }
    }

    /** Slots probed from a block's home slot before giving up. */
    private static final int PROBES = 8;
    /**
     * Live checkouts compared by reference on each return, before any identity hash is taken. A
     * reader that holds blocks for a whole request (a multiget's lease) keeps some sampled checkout
     * live most of the time, so every return of every thread was matched; the identity hash of a
     * fresh, never-hashed block is a call into the VM (the JIT's intrinsic only reads a hash already
     * in the header). While all live checkouts fit here, a return of an untracked block costs a few
     * loads instead.
     */
    private static final int FEW = 8;
    /** {@code Reference.refersTo} (JDK 16+): compares without making the referent strongly reachable. */
    private static final MethodHandle REFERS_TO = refersTo();

    private final AtomicReferenceArray<Checkout> slots;
    private final int mask;
    private final ReferenceQueue<Object> queue = new ReferenceQueue<>();
    private final AtomicReferenceArray<Checkout> few = new AtomicReferenceArray<>(FEW);
    /** Live checkouts not in {@link #few}: while above 0, every return is matched by hash. */
    private final AtomicInteger notInFew = new AtomicInteger();

    private final LongAdder dropped = new LongAdder();
    private final Listener listener;

    /** @param capacity slots; rounded up to a power of two */
    public CheckoutTracker(int capacity, Listener listener) {
        int size = Integer.highestOneBit(Math.max(16, capacity - 1)) << 1;
        this.slots = new AtomicReferenceArray<>(size);
        this.mask = size - 1;
        this.listener = listener;
    }

    /**
     * Checkouts tracked now, counted over the table (for tests and diagnostics; the hot path asks
     * the bridge's count, {@code Checkouts.trackedCheckouts}, which every tracker keeps).
     */
    public int live() {
        int n = 0;
        for (int slot = 0; slot <= mask; slot++) {
            if (slots.get(slot) != null) {
                n++;
            }
        }
        return n;
    }

    /** Checkouts not tracked because the table was full around their slot. */
    public long dropped() {
        return dropped.sum();
    }

    /** Starts tracking {@code block}, taken outside any table. Returns false when no slot was free. */
    public boolean track(Object block, int tier, long nowNanos, Origin origin) {
        return track(block, tier, nowNanos, origin, 0, null);
    }

    /**
     * Starts tracking {@code block}, taken for table id {@code table} on {@code region} (null: none).
     * Returns false when no slot was free.
     */
    public boolean track(Object block, int tier, long nowNanos, Origin origin, int table, Object region) {
        Checkout checkout = new Checkout(block, queue, tier, nowNanos, origin, table, region);
        // counted and listed before it is published in a slot: a return that finds it finds both set
        Checkouts.tracked(1);
        enterFew(checkout);
        int home = spread(System.identityHashCode(block));
        for (int i = 0; i < PROBES; i++) {
            int slot = (home + i) & mask;
            if (slots.get(slot) == null) {
                checkout.slot = slot;
                if (slots.compareAndSet(slot, null, checkout)) {
                    return true;
                }
            }
        }
        leaveFew(checkout);
        Checkouts.tracked(-1);
        checkout.clear();
        dropped.increment();
        return false;
    }

    /**
     * Ends the tracking of {@code block} if it is tracked, reporting its hold time. The clock is
     * read only on a match: most returns while some checkout is tracked are of untracked blocks.
     */
    public void returned(Object block, LongSupplier nanoClock) {
        if (REFERS_TO != null && notInFew.get() == 0 && !inFew(block)) {
            return; // not tracked: its identity hash is not needed
        }
        int home = spread(System.identityHashCode(block));
        for (int i = 0; i < PROBES; i++) {
            int slot = (home + i) & mask;
            Checkout checkout = slots.get(slot);
            if (checkout != null && checkout.get() == block && slots.compareAndSet(slot, checkout, null)) {
                leaveFew(checkout);
                Checkouts.tracked(-1);
                checkout.clear();
                listener.returned(checkout, nanoClock.getAsLong() - checkout.startNanos);
                return;
            }
        }
    }

    /** Reports checkouts whose block was garbage collected while still checked out. */
    public void pollCollected() {
        for (Object ref; (ref = queue.poll()) != null; ) {
            Checkout checkout = (Checkout) ref;
            if (slots.compareAndSet(checkout.slot, checkout, null)) {
                leaveFew(checkout);
                Checkouts.tracked(-1);
                listener.leaked(checkout, Reason.GC);
            }
        }
    }

    /** Reports (and stops tracking) checkouts held longer than {@code maxAgeNanos}. */
    public void expire(long nowNanos, long maxAgeNanos) {
        for (int slot = 0; slot <= mask; slot++) {
            Checkout checkout = slots.get(slot);
            if (checkout != null
                    && nowNanos - checkout.startNanos > maxAgeNanos
                    && slots.compareAndSet(slot, checkout, null)) {
                leaveFew(checkout);
                Checkouts.tracked(-1);
                checkout.clear();
                listener.leaked(checkout, Reason.AGE);
            }
        }
    }

    private void enterFew(Checkout checkout) {
        for (int i = 0; i < FEW; i++) {
            if (few.get(i) == null && few.compareAndSet(i, null, checkout)) {
                checkout.few = i;
                return;
            }
        }
        notInFew.incrementAndGet();
    }

    private void leaveFew(Checkout checkout) {
        if (checkout.few >= 0) {
            few.compareAndSet(checkout.few, checkout, null);
        } else {
            notInFew.decrementAndGet();
        }
    }

    /** Whether {@code block} is one of the listed live checkouts' blocks (by reference, no hash). */
    private boolean inFew(Object block) {
        for (int i = 0; i < FEW; i++) {
            Checkout checkout = few.get(i);
            if (checkout != null && refersTo(checkout, block)) {
                return true;
            }
        }
        return false;
    }

    private static boolean refersTo(Checkout checkout, Object block) {
        if (REFERS_TO == null) {
            return true; // before JDK 16: no throw per call, the identity hash decides
        }
        try {
            return (boolean) REFERS_TO.invokeExact((Reference<?>) checkout, block);
        } catch (Throwable e) {
            return true; // cannot tell: let the identity hash decide
        }
    }

    private static MethodHandle refersTo() {
        try {
            return MethodHandles.publicLookup()
                    .findVirtual(Reference.class, "refersTo", MethodType.methodType(boolean.class, Object.class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // before JDK 16: every return is matched by identity hash
        }
    }

    private static int spread(int hash) {
        return hash ^ (hash >>> 16);
    }
}
