package io.blockscope.hbasers;

import java.io.IOException;
import java.time.Instant;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CompactionState;

/** Waits for a compaction the test asked for. */
final class Compactions {

    private Compactions() {}

    /** Returns once the compaction requested on {@code name} has run; fails after 60 s. */
    static void await(Admin admin, TableName name) throws IOException {
        Instant deadline = Instant.now().plusSeconds(60);
        // the request is queued first: wait for it to start (or to have run already), then to end
        Instant started = Instant.now().plusSeconds(5);
        while (admin.getCompactionState(name) == CompactionState.NONE
                && Instant.now().isBefore(started)) {
            RegionServerProcess.sleep(100);
        }
        while (admin.getCompactionState(name) != CompactionState.NONE) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("the major compaction did not end within 60 s");
            }
            RegionServerProcess.sleep(200);
        }
    }
}
