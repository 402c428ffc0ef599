package io.blockscope.exporter.testing;

import io.blockscope.exporter.Exporter;
import io.blockscope.exporter.ExporterConfig;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The main of the child JVMs that GC and endpoint tests start: starts the exporter on
 * 127.0.0.1:0, forces a known number of collections, and reports on stdout what the JVM's own GC
 * MXBeans counted, so the parent can hold the exporter's numbers against them.
 *
 * <p>Arguments are {@code key=value}; {@code child.*} keys steer this main, the rest are exporter
 * options. {@code child.collections=N} forces N full collections (default 0; System.gc() until N
 * ran, at most 4N calls); {@code
 * child.gc-every-ms=M} then keeps forcing one every M ms; {@code child.return=true} returns from
 * main right after starting, leaving the exporter open. Otherwise the child waits to be killed,
 * at most {@code child.lifetime-s} (default 120) seconds.
 *
 * <p>Output lines: {@code jdk FEATURE}, {@code beans pre|base|end NAME=COUNT:MILLIS;...}, {@code
 * exporter port P serving B source S}, {@code forced N} (the full collections that ran).
 */
public final class ExporterChild {

    /** Keeps the churn's result observable, so no compiler can drop its allocations. */
    static volatile long sink;

    private ExporterChild() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            options.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        int collections = Integer.parseInt(options.getOrDefault("child.collections", "0"));
        long gcEveryMs = Long.parseLong(options.getOrDefault("child.gc-every-ms", "0"));
        boolean returnEarly = Boolean.parseBoolean(options.getOrDefault("child.return", "false"));
        long lifetimeMs = 1000 * Long.parseLong(options.getOrDefault("child.lifetime-s", "120"));
        options.keySet().removeIf(k -> k.startsWith("child."));

        System.out.println("jdk " + Runtime.version().feature());
        System.out.println("beans pre " + beans());
        Exporter exporter = Exporter.start(ExporterConfig.parse("127.0.0.1:0", options));
        System.out.println("exporter port " + exporter.port() + " serving " + exporter.isServing() + " source "
                + exporter.gcSource().label());
        if (returnEarly) {
            return;
        }
        System.out.println("beans base " + beans());
        int forced = 0;
        for (int call = 0; forced < collections && call < 4 * collections; call++) {
            sink += churn();
            long fullBefore = fullCollections();
            System.gc();
            // The VM may run no collection for a System.gc() (one ran since it was asked for, as
            // CI saw on G1: 5 calls, 4 full collections): only a full collection that ran counts.
            if (fullBefore < 0 || fullCollections() > fullBefore) {
                forced++;
            }
        }
        System.out.println("beans end " + beans());
        System.out.println("forced " + forced);
        long deadline = System.currentTimeMillis() + lifetimeMs;
        while (System.currentTimeMillis() < deadline) {
            if (gcEveryMs > 0) {
                sink += churn();
                System.gc();
                Thread.sleep(gcEveryMs);
            } else {
                Thread.sleep(200);
            }
        }
        exporter.close();
    }

    /** Some short-lived garbage, so collections have something to do. */
    private static long churn() {
        long sum = 0;
        for (int i = 0; i < 2_000; i++) {
            byte[] chunk = new byte[4096];
            chunk[i % 4096] = (byte) i;
            sum += chunk[0];
        }
        return sum;
    }

    /**
     * Full collections so far, as the GC beans of an old generation count them (G1 Old Generation,
     * PS MarkSweep, ...); -1 for a collector without one (ZGC), where every System.gc() counts.
     * hbase-it's {@code LeakingReader} has the same count: it is main code built for JDK 8 and run
     * in its own JVM, so neither can use the other's; change both together.
     */
    private static long fullCollections() {
        long n = -1;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            String name = gc.getName();
            if (name.contains("Old") || name.contains("MarkSweep")) {
                n = Math.max(n, 0) + Math.max(0, gc.getCollectionCount());
            }
        }
        return n;
    }

    /** {@code NAME=COUNT:MILLIS;...} for every GC MXBean. */
    static String beans() {
        StringJoiner j = new StringJoiner(";");
        List<GarbageCollectorMXBean> beans = ManagementFactory.getGarbageCollectorMXBeans();
        for (GarbageCollectorMXBean b : beans) {
            j.add(b.getName() + "=" + b.getCollectionCount() + ":" + b.getCollectionTime());
        }
        return j.toString();
    }
}
