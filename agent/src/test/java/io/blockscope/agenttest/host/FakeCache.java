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

    public long calls() {
        return calls;
    }
}
