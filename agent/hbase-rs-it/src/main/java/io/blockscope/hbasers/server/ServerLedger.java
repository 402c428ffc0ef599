package io.blockscope.hbasers.server;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * The server-side code's own counts, registered once as the MBean {@value #NAME} in the RegionServer's
 * platform MBean server, where the test reads them next to HBase's metrics.
 */
public final class ServerLedger implements ServerLedgerMBean {

    public static final String NAME = "io.blockscope.hbasers:type=ServerLedger";

    static final ServerLedger INSTANCE = register();

    private final AtomicLong copiedValues = new AtomicLong();
    private final AtomicLong copiedValueBytes = new AtomicLong();
    private final AtomicLong clonedValueBytes = new AtomicLong();

    private ServerLedger() {}

    private static ServerLedger register() {
        ServerLedger ledger = new ServerLedger();
        try {
            ManagementFactory.getPlatformMBeanServer().registerMBean(ledger, new ObjectName(NAME));
        } catch (JMException e) {
            throw new IllegalStateException("cannot register " + NAME, e);
        }
        return ledger;
    }

    /** Called by the filter classes at their first use, so the MBean exists before any count. */
    static void touch() {}

    void copied(int bytes) {
        copiedValues.incrementAndGet();
        copiedValueBytes.addAndGet(bytes);
    }

    void cloned(int bytes) {
        clonedValueBytes.addAndGet(bytes);
    }

    @Override
    public long getClonedValueBytes() {
        return clonedValueBytes.get();
    }

    @Override
    public long getCopiedValues() {
        return copiedValues.get();
    }

    @Override
    public long getCopiedValueBytes() {
        return copiedValueBytes.get();
    }

    @Override
    public int getHeldScanners() {
        return LeakingObserver.held();
    }
}
