package io.blockscope.hbasers.server;

/** What the test's own server-side code did, as it counted it. */
public interface ServerLedgerMBean {

    /** Values {@link CopyingValueFilter} copied from offheap cells with {@code getValueArray()}. */
    long getCopiedValues();

    /** Bytes of those values. */
    long getCopiedValueBytes();

    /** Bytes {@link CloningValueFilter} cloned with {@code CellUtil.cloneValue} from offheap cells. */
    long getClonedValueBytes();

    /** Region scanners {@link LeakingObserver} opened and holds without closing. */
    int getHeldScanners();
}
