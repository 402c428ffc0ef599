package io.blockscope.hbasers;

import io.blockscope.testsupport.Closer;
import io.blockscope.testsupport.PrometheusServer;
import java.nio.file.Path;

/**
 * What a RegionServer test class watches: a started RegionServer with the agent, its JMX, a Prometheus
 * scraping the agent with the shipped rules ({@link RegionServerPrometheus}), and a loaded workload table.
 * Closing it stops all of them, the RegionServer last.
 */
record WatchedRegionServer(RegionServerProcess server, ServerJmx jmx, PrometheusServer prometheus, Workload workload)
        implements AutoCloseable {

    /** Starts {@code server}, then Prometheus in {@code prometheusDir}, then loads the table {@code table}. */
    static WatchedRegionServer start(RegionServerProcess.Builder server, Path prometheusDir, String table)
            throws Exception {
        RegionServerProcess started = server.start();
        ServerJmx jmx = null;
        PrometheusServer prometheus = null;
        try {
            jmx = ServerJmx.connect(started.pid());
            prometheus = RegionServerPrometheus.start(
                    prometheusDir, started.metricsUri().getAuthority());
            return new WatchedRegionServer(started, jmx, prometheus, Workload.create(started, table));
        } catch (Exception | Error e) {
            try {
                Closer.closeAll(prometheus, jmx, started);
            } catch (Exception stopFailure) {
                e.addSuppressed(stopFailure);
            }
            throw e;
        }
    }

    /** host:port of the agent's endpoint, as Prometheus labels it {@code instance}. */
    String target() {
        return server.metricsUri().getAuthority();
    }

    @Override
    public void close() throws Exception {
        Closer.closeAll(workload, prometheus, jmx, server);
    }
}
