package io.blockscope.exporter.testing;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A snapshot of the GC MXBeans as {@link ExporterChild} prints it ({@code NAME=COUNT:MILLIS;...}),
 * with the JVM's own idea of collections and pauses.
 */
public final class GcBeans {

    private final Map<String, long[]> beans = new LinkedHashMap<>();

    public static GcBeans parse(String text) {
        GcBeans result = new GcBeans();
        for (String entry : text.split(";")) {
            int eq = entry.lastIndexOf('=');
            String[] countTime = entry.substring(eq + 1).split(":");
            result.beans.put(
                    entry.substring(0, eq), new long[] {Long.parseLong(countTime[0]), Long.parseLong(countTime[1])});
        }
        return result;
    }

    /** Collections (cycles): every bean except those that report the pauses of a cycle. */
    public long collections() {
        long n = 0;
        for (Map.Entry<String, long[]> e : beans.entrySet()) {
            if (!reportsPausesOfCycles(e.getKey())) {
                n += e.getValue()[0];
            }
        }
        return n;
    }

    /**
     * Stop-the-world pauses: the "... Pauses" beans of a concurrent collector; otherwise every
     * bean, since a stop-the-world collection is one pause (G1's concurrent-cycle bean counts its
     * remark and cleanup pauses).
     */
    public long pauses() {
        return pauseColumn(0);
    }

    /** Milliseconds of the pauses {@link #pauses()} counts. */
    public long pauseMillis() {
        return pauseColumn(1);
    }

    private long pauseColumn(int column) {
        boolean concurrent = beans.keySet().stream().anyMatch(n -> n.endsWith(" Pauses"));
        long n = 0;
        for (Map.Entry<String, long[]> e : beans.entrySet()) {
            if (!concurrent || e.getKey().endsWith(" Pauses")) {
                n += e.getValue()[column];
            }
        }
        return n;
    }

    private static boolean reportsPausesOfCycles(String bean) {
        return bean.endsWith(" Pauses") || bean.equals("G1 Concurrent GC");
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder();
        beans.forEach((k, v) ->
                s.append(k).append('=').append(v[0]).append(':').append(v[1]).append("ms "));
        return s.toString().trim();
    }
}
