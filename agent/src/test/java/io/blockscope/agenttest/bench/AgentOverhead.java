package io.blockscope.agenttest.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link ReadPathBenchmark} without and with the agent, interleaved (A B A B ...), one fork per
 * run, and prints each run and the medians with the ratio. Usage:
 * {@code AgentOverhead <agent jar> [rounds] [agent options]}.
 */
public final class AgentOverhead {

    public static void main(String[] args) throws Exception {
        String jar = args[0];
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        String options = args.length > 2 ? args[2] : "127.0.0.1:0";
        Map<String, List<Double>> without = new TreeMap<>();
        Map<String, List<Double>> with = new TreeMap<>();
        for (int round = 0; round < rounds; round++) {
            collect(run(null), without, "without", round);
            collect(run("-javaagent:" + jar + "=" + options), with, "with", round);
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "%-40s %12s %12s %8s%n", "benchmark (ns/op, median)", "without", "with", "cost");
        for (String name : without.keySet()) {
            double a = median(without.get(name));
            double b = median(with.get(name));
            System.out.printf(Locale.ROOT, "%-40s %12.2f %12.2f %7.1f%%%n", name, a, b, 100 * (b - a) / a);
        }
    }

    private static Collection<RunResult> run(String agent) throws Exception {
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(ReadPathBenchmark.class.getName())
                .forks(1)
                .warmupIterations(3)
                .warmupTime(TimeValue.seconds(1))
                .measurementIterations(5)
                .measurementTime(TimeValue.seconds(1))
                .jvmArgs("-Xmx512m", "-Xshare:off");
        if (agent != null) {
            options = options.jvmArgsAppend(agent);
        }
        return new Runner(options.build()).run();
    }

    private static void collect(
            Collection<RunResult> results, Map<String, List<Double>> into, String label, int round) {
        for (RunResult result : results) {
            String name = result.getParams().getBenchmark().replaceAll(".*\\.", "");
            double score = result.getPrimaryResult().getScore();
            into.computeIfAbsent(name, k -> new ArrayList<>()).add(score);
            System.out.printf(Locale.ROOT, "round %d %-8s %-20s %10.2f ns/op%n", round, label, name, score);
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
