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
        for (int i = 0; i < runs; i++) {
            without.add(once(null));
            with.add(once(options));
            System.out.printf("run %d: without %d ms, with %d ms%n", i + 1, without.get(i), with.get(i));
        }
        long a = median(without);
        long b = median(with);
        System.out.printf("median of %d: without %d ms, with %d ms, agent adds %d ms%n", runs, a, b, b - a);
    }

    private static long once(String options) {
        RegionServerProcess.Builder builder = RegionServerProcess.builder();
        if (options != null) {
            builder.agent(options);
        }
        try (RegionServerProcess server = builder.start()) {
            return server.startup().toMillis();
        }
    }

    private static long median(List<Long> values) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
