package io.blockscope.hbasers;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import javax.management.remote.JMXConnector;

/**
 * A RegionServer JVM's own readings over its local management agent ({@link LocalJmx}), with or
 * without the blockscope agent: HBase's flush and compaction counters, the collectors' time, its JDK.
 */
final class ServerGauges implements AutoCloseable {

    /** HBase's counters that move when the server flushes or compacts. */
    static final List<String> FLUSH_AND_COMPACTION = List.of(
            "flushedCellsCount",
            "flushedOutputBytes",
            "compactedCellsCount",
            "compactedInputBytes",
            "majorCompactedCellsCount");

    private static final String HBASE_SERVER = "Hadoop:service=HBase,name=RegionServer,sub=Server";

    private final JMXConnector connector;
    private final MBeanServerConnection server;

    private ServerGauges(JMXConnector connector) throws IOException {
        this.connector = connector;
        this.server = connector.getMBeanServerConnection();
    }

    static ServerGauges attach(long pid) throws Exception {
        return new ServerGauges(LocalJmx.connect(pid));
    }

    /**
     * HBase's counters of {@code names}, -1 for one it does not have now (HBase registers its metrics
     * MBeans a few seconds after a region opens; their values are cached for one metrics period, 1 s).
     */
    Map<String, Long> hbaseCounters(List<String> names) {
        return hbaseCounters(server, names);
    }

    /** {@link #hbaseCounters(List)} over any connection to a RegionServer's MBeans. */
    static Map<String, Long> hbaseCounters(MBeanServerConnection server, List<String> names) {
        Map<String, Long> values = new LinkedHashMap<>();
        for (String name : names) {
            long value;
            try {
                value = ((Number) server.getAttribute(new ObjectName(HBASE_SERVER), name)).longValue();
            } catch (JMException | IOException | RuntimeException e) {
                value = -1;
            }
            values.put(name, value);
        }
        return values;
    }

    /**
     * Milliseconds of pauses the collectors report (G1: young and mixed, full; not remark or cleanup;
     * the concurrent cycle's bean, where the JDK has one, counts no pause and is left out).
     */
    long gcPauseMillis() throws Exception {
        long millis = 0;
        for (ObjectName gc : server.queryNames(new ObjectName("java.lang:type=GarbageCollector,*"), null)) {
            if (!gc.getKeyProperty("name").contains("Concurrent")) {
                millis += ((Number) server.getAttribute(gc, "CollectionTime")).longValue();
            }
        }
        return millis;
    }

    /** The server JVM's {@code java.runtime.version}, as it reports it. */
    String jdk() throws Exception {
        TabularData properties =
                (TabularData) server.getAttribute(new ObjectName("java.lang:type=Runtime"), "SystemProperties");
        CompositeData row = properties.get(new Object[] {"java.runtime.version"});
        return row == null ? "unknown" : String.valueOf(row.get("value"));
    }

    @Override
    public void close() throws IOException {
        connector.close();
    }
}
