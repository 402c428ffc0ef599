package io.blockscope.hbasers;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Command-line uses of {@link RegionServerProcess}, run by {@code agent/hbase-rs-it/run-regionserver.sh}:
 *
 * <ul>
 *   <li>{@code serve [agent options]}: starts the standalone RegionServer with the agent, prints its
 *       ZooKeeper port, the agent's metrics URL and the pid, and keeps it running until stdin closes
 *       or Ctrl-C;
 *   <li>{@code startup N [agent options]}: starts it N times without and N times with the agent,
 *       interleaved, and prints each time to "Master has completed initialization" and the medians.
 * </ul>
 */
public final class RegionServerMain {

    private RegionServerMain() {}

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "serve";
        if (mode.equals("startup")) {
            int runs = Integer.parseInt(args[1]);
            String options = args.length > 2 ? args[2] : "";
            startup(runs, options);
        } else if (mode.equals("serve")) {
            serve(args.length > 1 ? args[1] : "");
        } else {
            throw new IllegalArgumentException("usage: serve [agent options] | startup N [agent options]");
        }
    }

    private static void serve(String options) throws Exception {
        RegionServerProcess server =
                RegionServerProcess.builder().agent(options).start();
        Runtime.getRuntime().addShutdownHook(new Thread(server::close));
        System.out.println("regionserver.pid=" + server.pid());
        System.out.println("zookeeper.quorum=127.0.0.1:" + server.zookeeperPort());
        System.out.println("metrics=" + server.metricsUri());
        System.out.println("started.ms=" + server.startup().toMillis());
        System.out.println("running; close stdin or press Ctrl-C to stop");
        while (System.in.read() >= 0) {
            // until stdin closes
        }
        server.close();
    }

    private static void startup(int runs, String options) {
        List<Long> without = new ArrayList<>();
        List<Long> with = new ArrayList<>();
        List<Long> withoutCpu = new ArrayList<>();
        List<Long> withCpu = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            long[] a = once(null);
            long[] b = once(options);
            without.add(a[0]);
            withoutCpu.add(a[1]);
            with.add(b[0]);
            withCpu.add(b[1]);
            System.out.printf(
                    "run %d: without %d ms (cpu %d ms), with %d ms (cpu %d ms)%n", i + 1, a[0], a[1], b[0], b[1]);
        }
        System.out.printf(
                "median of %d: without %d ms (cpu %d ms), with %d ms (cpu %d ms): the agent adds %d ms wall, %d ms cpu%n",
                runs,
                median(without),
                median(withoutCpu),
                median(with),
                median(withCpu),
                median(with) - median(without),
                median(withCpu) - median(withoutCpu));
    }

    /** Wall and CPU milliseconds to "Master has completed initialization". */
    private static long[] once(String options) {
        RegionServerProcess.Builder builder = RegionServerProcess.builder();
        if (options != null) {
            builder.agent(options);
        }
        try (RegionServerProcess server = builder.start()) {
            return new long[] {
                server.startup().toMillis(),
                server.startupCpu() == null ? -1 : server.startupCpu().toMillis()
            };
        }
    }

    private static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
