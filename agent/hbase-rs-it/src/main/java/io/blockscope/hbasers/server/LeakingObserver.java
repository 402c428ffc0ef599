package io.blockscope.hbasers.server;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.regionserver.RegionScanner;

/**
 * A coprocessor with the classic bug: on a Get carrying the attribute {@value #LEAK} it opens a region
 * scanner, reads one row and keeps the scanner open, so the BucketCache block under the scanner stays
 * referenced. A Get carrying {@value #CLOSE} closes every scanner it holds (the fix, applied late).
 */
public final class LeakingObserver implements RegionCoprocessor, RegionObserver {

    public static final String LEAK = "blockscope.leak";
    public static final String CLOSE = "blockscope.close";

    private static final List<RegionScanner> HELD = new ArrayList<>();

    static {
        ServerLedger.touch();
    }

    @Override
    public Optional<RegionObserver> getRegionObserver() {
        return Optional.of(this);
    }

    @Override
    public void preGetOp(ObserverContext<RegionCoprocessorEnvironment> context, Get get, List<Cell> result)
            throws IOException {
        if (get.getAttribute(LEAK) != null) {
            RegionScanner scanner = context.getEnvironment().getRegion().getScanner(new Scan());
            scanner.next(new ArrayList<>());
            synchronized (HELD) {
                HELD.add(scanner);
            }
        }
        if (get.getAttribute(CLOSE) != null) {
            synchronized (HELD) {
                for (RegionScanner scanner : HELD) {
                    scanner.close();
                }
                HELD.clear();
            }
        }
    }

    static int held() {
        synchronized (HELD) {
            return HELD.size();
        }
    }
}
