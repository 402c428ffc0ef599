package io.blockscope.agenttest.host;

/**
 * A minimal cache for probes pointed at test classes (see fake-profile.json): hits and misses
 * alternate, and nothing here allocates, so any allocation measured around it is the agent's.
 */
public final class FakeCache {

    private final Object block = new Object();
    private final byte[] value = new byte[64];
    private long calls;

    public Object getBlock(long key) {
        calls++;
        return (key & 1) == 0 ? block : null;
    }

    public void returnBlock(long key, Object block) {
        calls++;
    }

    /** A copy method that, unlike a real one, hands out the same array (so the loop allocates nothing). */
    public byte[] copyValue() {
        calls++;
        return value;
    }

    /** A "copy" that returns null: a probe reading its length fails inside the advice. */
    public byte[] brokenCopy() {
        calls++;
        return null;
    }

    /** A release that counts only for shared blocks: the profile's "when" reads the argument. */
    public void release(boolean shared) {
        calls++;
    }

    /** A block of {@link #lookup}: shared ones must be released, heap ones the reader just drops. */
    public static final class FakeBlock {
        private final boolean shared;

        FakeBlock(boolean shared) {
            this.shared = shared;
        }

        public boolean shared() {
            return shared;
        }
    }

    private final FakeBlock heapBlock = new FakeBlock(false);
    private final FakeBlock sharedBlock = new FakeBlock(true);
    private final FakeBlock readBlock = new FakeBlock(true);

    /**
     * A lookup whose hits are checkouts only on shared blocks (the profile's "checkout" reads the
     * returned block, so it must not be read on a miss): odd keys miss, keys divisible by 4 hit a
     * heap block, the other even keys a shared one.
     */
    public FakeBlock lookup(long key) {
        calls++;
        return (key & 1) == 1 ? null : (key & 3) == 0 ? heapBlock : sharedBlock;
    }

    /** A block read from "disk", never handed out by {@link #lookup}: its release is no return. */
    public FakeBlock read() {
        calls++;
        return readBlock;
    }

    /** Gives a block back; counted only for blocks a lookup checked out ("returns": "checked-out"). */
    public void releaseBlock(FakeBlock block) {
        calls++;
    }

    public long calls() {
        return calls;
    }
}
