package io.blockscope.hbasers;

import io.blockscope.hbasers.server.LeakingObserver;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;

/**
 * A standalone HBase ({@code HMaster start} with {@code hbase.cluster.distributed=false}: master,
 * RegionServer and ZooKeeper in one JVM; this module's 2.6 unless {@link Builder#hbaseClassPath} names
 * another release's jars) with an offheap BucketCache, in its own JVM, configured only
 * through an {@code hbase-site.xml} in a temporary conf directory at the front of its class path.
 * Everything it writes stays in that temporary directory. The master's and the RegionServer's RPC
 * ports are 0, bound by the kernel; ZooKeeper's, which clients must know in advance, is picked free
 * and picked again should another process take it before HBase binds it.
 */
final class RegionServerProcess implements AutoCloseable {

    /** What the standalone server needs from JDK 17 for its own offheap and reflective code. */
    static final List<String> ADD_OPENS = List.of(
            "java.base/java.lang",
            "java.base/java.lang.reflect",
            "java.base/java.nio",
            "java.base/sun.nio.ch",
            "java.base/java.util.concurrent",
            "java.base/jdk.internal.misc");

    static final int BUCKET_CACHE_MB = 256;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static final Pattern METRICS_URL = Pattern.compile("metrics at (http://\\S+/metrics)");
    private static final String READY = "Master has completed initialization";
    /** HMasterCommandLine's words when ZooKeeper could not have the client port it was given. */
    private static final String ZOOKEEPER_PORT_TAKEN = "Could not start ZK at requested port of ";

    private static final int ZOOKEEPER_PORT_ATTEMPTS = 3;
    /** {@code hbase.rootdir}, under the server's directory. */
    private static final String ROOT = "root";

    private final Process process;
    private final Path dir;
    private final Path log;
    private final int zkPort;
    private final Path java;
    private final Instant started;
    private Duration startup;
    private Duration startupCpu;
    private Map<String, Long> startupThreads = Map.of();

    private RegionServerProcess(Process process, Path dir, Path log, int zkPort, Path java, Instant started) {
        this.process = process;
        this.dir = dir;
        this.log = log;
        this.zkPort = zkPort;
        this.java = java;
        this.started = started;
    }

    static Builder builder() {
        return new Builder();
    }

    long pid() {
        return process.pid();
    }

    int zookeeperPort() {
        return zkPort;
    }

    Path java() {
        return java;
    }

    /** From process start to HBase's "Master has completed initialization". */
    Duration startup() {
        return startup;
    }

    /**
     * CPU time (user + system) the server had used when it was ready: steadier than wall time on
     * a busy machine. Null where /proc is not available.
     */
    Duration startupCpu() {
        return startupCpu;
    }

    /**
     * CPU milliseconds by thread name (digits folded: "GC Thread#N") of the threads alive when the
     * server was ready, largest first; empty where /proc is not available. Ended threads are missing.
     */
    Map<String, Long> startupThreadCpu() {
        return startupThreads;
    }

    private Map<String, Long> threadCpu() {
        Map<String, Long> byName = new java.util.HashMap<>();
        Path tasks = Path.of("/proc", Long.toString(process.pid()), "task");
        try (var threads = Files.list(tasks)) {
            for (Path task : (Iterable<Path>) threads::iterator) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
                            .replaceAll("\\d+", "N");
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    byName.merge(name, (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10, Long::sum);
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return Map.of();
        }
        Map<String, Long> sorted = new LinkedHashMap<>();
        byName.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    private Duration cpuTime() {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            return Duration.ofMillis(ticks * 10); // USER_HZ is 100 on Linux
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** A client configuration for this server (ZooKeeper on loopback, few retries). */
    Configuration clientConfiguration() {
        Configuration conf = HBaseConfiguration.create();
        conf.set("hbase.zookeeper.quorum", "127.0.0.1");
        conf.setInt("hbase.zookeeper.property.clientPort", zkPort);
        conf.setInt("hbase.client.retries.number", 5);
        conf.setInt("hbase.client.pause", 100);
        conf.setInt("zookeeper.recovery.retry", 1);
        return conf;
    }

    /** The agent's scrape endpoint, as its startup line announced it; waits for it up to 30 s. */
    URI metricsUri() {
        Instant deadline = Instant.now().plusSeconds(30);
        while (true) {
            Optional<Matcher> line = agentLine(METRICS_URL);
            if (line.isPresent()) {
                return URI.create(line.get().group(1));
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("the agent announced no metrics URL; log tail:\n" + logTail(80));
            }
            sleep(200);
        }
    }

    /** The first {@code [blockscope]} line of the server's output matching {@code pattern}. */
    Optional<Matcher> agentLine(Pattern pattern) {
        for (String line : lines()) {
            if (line.contains("[blockscope]")) {
                Matcher m = pattern.matcher(line);
                if (m.find()) {
                    return Optional.of(m);
                }
            }
        }
        return Optional.empty();
    }

    /** Every {@code [blockscope]} line the server printed. */
    List<String> agentLines() {
        return lines().stream().filter(l -> l.contains("[blockscope]")).collect(Collectors.toList());
    }

    /** Where HBase keeps its tables ({@code hbase.rootdir}, on the local file system). */
    Path rootDir() {
        return dir.resolve(ROOT);
    }

    String logTail(int count) {
        List<String> lines = lines();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - count), lines.size()));
    }

    private List<String> lines() {
        try {
            return Files.readAllLines(log, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return List.of("(no log: " + e + ")");
        }
    }

    private void awaitReady() {
        Instant deadline = started.plus(START_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new AssertionError(
                        "the RegionServer exited with " + process.exitValue() + "; log tail:\n" + logTail(80));
            }
            if (lines().stream().anyMatch(l -> l.contains(READY))) {
                startup = Duration.between(started, Instant.now());
                startupCpu = cpuTime();
                startupThreads = threadCpu();
                return;
            }
            sleep(100);
        }
        throw new AssertionError(
                "the RegionServer did not initialize within " + START_TIMEOUT + "; log tail:\n" + logTail(80));
    }

    /** Whether this server exited because ZooKeeper's client port was taken when it bound it. */
    private boolean lostZooKeeperPort() {
        return !process.isAlive() && lines().stream().anyMatch(l -> l.contains(ZOOKEEPER_PORT_TAKEN));
    }

    @Override
    public void close() {
        // Killed, not shut down: its data is thrown away, and HBase's orderly shutdown takes seconds.
        process.destroyForcibly();
        try {
            process.waitFor(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        deleteTree(dir);
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            paths.sorted((a, b) -> b.compareTo(a)).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp dir left behind is not a test failure
        }
    }

    static final class Builder {
        private Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        private String agentOptions;
        private Path agentJar;
        private final List<String> jvmOptions = new ArrayList<>();
        private List<String> moduleFlags = addOpensFlags();
        private final Map<String, String> site = new LinkedHashMap<>();
        private IntSupplier zookeeperPorts = RegionServerProcess::freePort;
        private String hbaseClassPath;

        /** The {@code java} executable the server runs on (default: the test's own). */
        Builder java(Path executable) {
            this.java = executable;
            return this;
        }

        /** {@code -javaagent:blockscope-agent.jar=127.0.0.1:0,OPTIONS} at start (empty: defaults). */
        Builder agent(String options) {
            this.agentOptions = options;
            return this;
        }

        /** The agent jar {@link #agent} attaches (default: the built one, {@link AgentJar#locate}). */
        Builder agentJar(Path jar) {
            this.agentJar = jar;
            return this;
        }

        /** Extra JVM options, before the agent's (e.g. a JFR recording of the start). */
        Builder jvmOptions(List<String> options) {
            jvmOptions.addAll(options);
            return this;
        }

        /**
         * Without the module flags of {@link #ADD_OPENS}: the caller's {@link #jvmOptions} give all of
         * them (as docs/quickstart-hbase.md's {@code hbase-env.sh} does), or the server fails to start.
         */
        Builder withoutModuleFlags() {
            moduleFlags = List.of();
            return this;
        }

        /** An extra {@code hbase-site.xml} property. */
        Builder site(String key, String value) {
            site.put(key, value);
            return this;
        }

        /**
         * HBase's jars as a path-separated list: another release's whole RegionServer class path (the
         * build writes one per release it tests, see {@code src/releases/}) instead of this module's
         * own, {@code blockscope.rs.classpath}. This module's classes still come first.
         */
        Builder hbaseClassPath(String classPath) {
            this.hbaseClassPath = classPath;
            return this;
        }

        /** Where ZooKeeper's client port comes from (default: a port free when asked). */
        Builder zookeeperPorts(IntSupplier ports) {
            this.zookeeperPorts = ports;
            return this;
        }

        /**
         * Starts the server and waits until its master has initialized. A ZooKeeper port that another
         * process took between its pick and HBase's bind is picked again, up to three times in all.
         */
        RegionServerProcess start() {
            for (int attempt = 1; ; attempt++) {
                RegionServerProcess server = launch(zookeeperPorts.getAsInt());
                try {
                    server.awaitReady();
                    return server;
                } catch (RuntimeException | Error e) {
                    boolean again = attempt < ZOOKEEPER_PORT_ATTEMPTS && server.lostZooKeeperPort();
                    server.close();
                    if (!again) {
                        throw e;
                    }
                    System.err.println("ZooKeeper's port " + server.zkPort
                            + " was taken before HBase bound it; starting again on another");
                }
            }
        }

        private RegionServerProcess launch(int zkPort) {
            try {
                Path dir = Files.createTempDirectory("blockscope-rs-");
                Path conf = Files.createDirectories(dir.resolve("conf"));
                Map<String, String> props = new LinkedHashMap<>();
                props.put("hbase.cluster.distributed", "false");
                props.put("hbase.rootdir", dir.resolve(ROOT).toUri().toString());
                props.put("hbase.tmp.dir", dir.resolve("tmp").toString());
                props.put("hbase.zookeeper.property.dataDir", dir.resolve("zk").toString());
                props.put("hbase.zookeeper.property.clientPort", Integer.toString(zkPort));
                props.put("hbase.zookeeper.quorum", "127.0.0.1");
                // 0: the kernel picks at bind, so no other process can take them first.
                props.put("hbase.master.port", "0");
                props.put("hbase.regionserver.port", "0");
                props.put("hbase.master.info.port", "-1");
                props.put("hbase.regionserver.info.port", "-1");
                // The local file system has no hflush: standalone HBase's own advice for file:// roots.
                props.put("hbase.unsafe.stream.capability.enforce", "false");
                props.put("hbase.bucketcache.ioengine", "offheap");
                props.put("hbase.bucketcache.size", Integer.toString(BUCKET_CACHE_MB));
                props.put("hbase.coprocessor.region.classes", LeakingObserver.class.getName());
                // Fewer handler threads and no periodic chores that would read blocks mid-assertion.
                props.put("hbase.regionserver.handler.count", "8");
                props.put("hbase.regionserver.compaction.enabled", "false");
                props.put("hbase.master.balancer.stochastic.runMaxSteps", "false");
                props.putAll(site);
                Files.writeString(conf.resolve("hbase-site.xml"), siteXml(props));
                Files.writeString(
                        conf.resolve("log4j.properties"),
                        "log4j.rootLogger=INFO,console\n"
                                + "log4j.appender.console=org.apache.log4j.ConsoleAppender\n"
                                + "log4j.appender.console.target=System.err\n"
                                + "log4j.appender.console.layout=org.apache.log4j.PatternLayout\n"
                                + "log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %-5p [%t] %c{2}: %m%n\n"
                                + "log4j.logger.org.apache.zookeeper=WARN\n"
                                + "log4j.logger.org.apache.hadoop.hbase.zookeeper=WARN\n");
                // JMX attributes of HBase's metrics sources are cached for one metrics period.
                Files.writeString(conf.resolve("hadoop-metrics2-hbase.properties"), "*.period=1\n");

                List<String> command = new ArrayList<>();
                command.add(java.toString());
                command.add("-Xms512m");
                command.add("-Xmx512m");
                command.add("-XX:MaxDirectMemorySize=" + (BUCKET_CACHE_MB + 256) + "m");
                command.add("-Djava.net.preferIPv4Stack=true");
                command.addAll(moduleFlags);
                command.addAll(jvmOptions);
                if (agentOptions != null) {
                    command.add("-javaagent:" + (agentJar != null ? agentJar : AgentJar.locate()) + "=127.0.0.1:0"
                            + (agentOptions.isEmpty() ? "" : "," + agentOptions));
                }
                command.add("-cp");
                // This module's classes (the filter, the coprocessor), then its test classes where
                // given, then HBase's jars.
                String testClasses = System.getProperty("blockscope.rs.testclasses", "");
                command.add(conf
                        + File.pathSeparator
                        + required("blockscope.rs.classes")
                        + (testClasses.isBlank() ? "" : File.pathSeparator + testClasses)
                        + File.pathSeparator
                        + (hbaseClassPath != null ? hbaseClassPath : required("blockscope.rs.classpath")));
                command.add("org.apache.hadoop.hbase.master.HMaster");
                command.add("start");
                Path log = dir.resolve("regionserver.log");
                Instant started = Instant.now();
                Process process = new ProcessBuilder(command)
                        .directory(dir.toFile())
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
                process.getOutputStream().close();
                return new RegionServerProcess(process, dir, log, zkPort, java, started);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private static List<String> addOpensFlags() {
            List<String> flags = new ArrayList<>();
            for (String open : ADD_OPENS) {
                flags.add("--add-opens=" + open + "=ALL-UNNAMED");
            }
            return flags;
        }

        private static String siteXml(Map<String, String> props) {
            StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
            props.forEach((k, v) -> xml.append("  <property><name>")
                    .append(k)
                    .append("</name><value>")
                    .append(v)
                    .append("</value></property>\n"));
            return xml.append("</configuration>\n").toString();
        }
    }

    static String required(String property) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + property
                    + " is not set: run through Maven (mvn -pl agent/hbase-rs-it -am verify) or"
                    + " agent/hbase-rs-it/run-regionserver.sh, which set it");
        }
        return value;
    }
}
