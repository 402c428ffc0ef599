package io.blockscope.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.agenttest.host.HelloHost;
import io.blockscope.agenttest.host.LoadHost;
import io.blockscope.server.load.TableSpec;
import io.blockscope.server.rpc.RpcClient;
import io.blockscope.testsupport.Scrape;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code java -jar blockscope-agent.jar attach <pid>} on running JVMs: nothing needs a restart, nothing breaks. */
class AttachIT {

    @ParameterizedTest(name = "JDK {0}")
    @ValueSource(ints = {17, 25})
    void lateAttachUnderLoadRetransformsAndCounts(int jdk) throws Exception {
        String java = jdk == 17 ? ChildJvm.java17() : ChildJvm.java25();
        ChildJvm.Builder builder = ChildJvm.builder(java);
        if (jdk >= 21) {
            builder.jvmOption("-XX:+EnableDynamicAgentLoading"); // the operator's opt-in; 17 lacks the flag
        }
        try (ChildJvm host = builder.classPath(ChildJvm.classPath("blockscope-example-server"))
                .start(LoadHost.class.getName())) {
            host.awaitOut(Pattern.compile("^loading"));
            Thread.sleep(500); // the load's classes are loaded and hot before the attach
            Launch launch = attach(java, host.pid(), "127.0.0.1:0,leak.sample=16,copy.sample=16");
            assertEquals(0, launch.status, launch.output);
            Matcher port = Pattern.compile("running profile example-server; metrics on port (\\d+)")
                    .matcher(launch.output);
            assertTrue(port.find(), launch.output);

            Scrape first = Scrape.of(Integer.parseInt(port.group(1)));
            Thread.sleep(300);
            Scrape second = Scrape.of(Integer.parseInt(port.group(1)));
            double hits = second.count("blockscope_block_cache_gets_total", "tier", "l2", "result", "hit");
            assertTrue(
                    hits > first.count("blockscope_block_cache_gets_total", "tier", "l2", "result", "hit") && hits > 0,
                    second.text());
            assertTrue(second.count("blockscope_copy_to_heap_total", "component", "value") > 0, second.text());
            assertEquals(1, second.value("blockscope_agent_probe_enabled", "probe", "block-get"));
            assertEquals(1, second.value("blockscope_agent_probe_enabled", "probe", "bucket-occupancy"));
            assertTrue(second.value("blockscope_bucket_cache_used_bytes") > 0, second.text());

            host.send("stop");
            String done = host.awaitOut(Pattern.compile("^(load done .*)"));
            assertTrue(done.contains(" errors=0 ") && done.endsWith("outstanding=0"), done + "\n" + host.transcript());
            assertEquals(0, host.waitFor(), host.transcript());
            assertTrue(host.err().stream().noneMatch(l -> l.contains("WARNING")), host.transcript());
        }
    }

    @Test
    void lateAttachToTheExampleServerUnderRpcLoad() throws Exception {
        try (ChildJvm server = ChildJvm.builder(ChildJvm.java17())
                .classPath(ServerRpcIT.serverJar().toString())
                .start(
                        "io.blockscope.server.cli.Main",
                        "serve",
                        "--rows",
                        "2000",
                        "--port",
                        "0",
                        "--l2-size",
                        "64m",
                        "--l1-size",
                        "16m")) {
            String url = server.awaitOut(Pattern.compile("blockscope-example-server listening on (http://\\S+)"));
            RpcClient client = new RpcClient(URI.create(url), Duration.ofSeconds(30));
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong ops = new AtomicLong();
            AtomicLong errors = new AtomicLong();
            Thread load = new Thread(() -> {
                for (int i = 0; !stop.get(); i++) {
                    try {
                        if (client.get("TestTable", TableSpec.rowKey(i % 2000), true)
                                        .rows()
                                != 1) {
                            errors.incrementAndGet();
                        }
                        ops.incrementAndGet();
                    } catch (Exception e) {
                        errors.incrementAndGet();
                    }
                }
            });
            load.start();
            try {
                Thread.sleep(500);
                Launch launch = attach(server.pid(), "127.0.0.1:0");
                assertEquals(0, launch.status, launch.output + "\n" + server.transcript());
                Matcher port = Pattern.compile("metrics on port (\\d+)").matcher(launch.output);
                assertTrue(port.find(), launch.output);
                long before = ops.get();
                Thread.sleep(500);
                Scrape scrape = Scrape.of(Integer.parseInt(port.group(1)));
                assertTrue(
                        scrape.count("blockscope_block_cache_gets_total", "tier", "l2", "result", "hit") > 0,
                        scrape.text());
                assertTrue(scrape.count("blockscope_block_cache_returns_total", "tier", "l2") > 0, scrape.text());
                assertTrue(scrape.value("blockscope_bucket_cache_used_bytes") > 0, scrape.text());
                assertTrue(ops.get() > before, "the load kept going");
            } finally {
                stop.set(true);
                load.join();
            }
            assertEquals(0, errors.get(), server.transcript());
        }
    }

    @Test
    void attachToAJvmWithoutTargetsLeavesItRunning() throws Exception {
        try (ChildJvm host = ChildJvm.builder(ChildJvm.java17())
                .classPath(ChildJvm.classPath())
                .start(HelloHost.class.getName(), "wait")) {
            host.awaitOut(Pattern.compile("^waiting"));
            Launch launch = attach(host.pid(), "127.0.0.1:0");
            assertEquals(0, launch.status, launch.output);
            assertTrue(launch.output.contains("running without a profile"), launch.output);
            host.send("done");
            host.awaitOut(Pattern.compile("^host done"));
            assertEquals(0, host.waitFor(), host.transcript());
            assertTrue(
                    host.agentLines().stream().anyMatch(l -> l.contains("no known server classes")), host.transcript());
        }
    }

    @Test
    void launcherRejectsABadOptionBeforeTouchingTheTarget() throws Exception {
        try (ChildJvm host = ChildJvm.builder(ChildJvm.java17())
                .classPath(ChildJvm.classPath())
                .start(HelloHost.class.getName(), "wait")) {
            host.awaitOut(Pattern.compile("^waiting"));
            Launch launch = attach(host.pid(), "0,copy.sample=-1");
            assertEquals(1, launch.status, launch.output); // main never ends the JVM: a failure exits 1
            assertTrue(launch.output.contains("malformed copy.sample '-1': expected an integer in 0.."), launch.output);
            assertTrue(launch.output.contains("blockscope attach failed with status 2"), launch.output);
            host.send("done");
            assertEquals(0, host.waitFor(), host.transcript());
            assertTrue(host.agentLines().isEmpty(), host.transcript());
        }
    }

    @Test
    void aRuntimeWithoutTheAttachApiIsToldToUseAFullJdk() throws Exception {
        // a jlinked runtime without jdk.attach, simulated by limiting the modules
        Process launcher = new ProcessBuilder(List.of(
                        ChildJvm.java17(),
                        "--limit-modules",
                        "java.base,java.instrument,java.management,java.logging,java.net.http,jdk.jfr,jdk.management",
                        "-jar",
                        ChildJvm.agentJar().toString(),
                        "attach",
                        Long.toString(ProcessHandle.current().pid()),
                        "0"))
                .redirectErrorStream(true)
                .start();
        String output = new String(launcher.getInputStream().readAllBytes());
        assertEquals(1, launcher.waitFor(), output);
        assertTrue(output.contains("blockscope attach failed with status 3"), output);
        assertTrue(
                output.contains("this Java runtime has no Attach API (module jdk.attach)")
                        && output.contains("java of a full JDK"),
                output);
    }

    private record Launch(int status, String output) {}

    private static Launch attach(long pid, String options) throws Exception {
        return attach(ChildJvm.java17(), pid, options);
    }

    private static Launch attach(String java, long pid, String options) throws Exception {
        Process launcher = new ProcessBuilder(
                        List.of(java, "-jar", ChildJvm.agentJar().toString(), "attach", Long.toString(pid), options))
                .redirectErrorStream(true)
                .start();
        String output = new String(launcher.getInputStream().readAllBytes());
        return new Launch(launcher.waitFor(), output);
    }
}
