package io.blockscope.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.agenttest.host.CacheWorkload;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The diagnostics jar's run-time probe switch on the example server's real caches: one child JVM
 * removes and reinstalls the probes through the platform MBean, and the counters follow exactly:
 * nothing counted while the probes are out, only gets with {@code block-get} alone, both again with
 * {@code all}. The production jar has no such MBean, and refuses {@code probe.switch} in one line
 * while the host runs on.
 */
class ProbeSwitchIT {

    private static final int ROUNDS = 20;
    private static final String SERVER = "blockscope-example-server";
    private static final String PROBES = "block-get,block-return,cell-copy,block-copy,bucket-occupancy";
    private static final int CYCLES = 5;

    @Test
    void removesAndReinstallsProbesInOneJvm() throws Exception {
        try (ChildJvm child = ChildJvm.builder(ChildJvm.java17())
                .diagnosticsAgent("127.0.0.1:0")
                .classPath(ChildJvm.classPath(SERVER))
                .start(CacheWorkload.class.getName(), "zero-copy")) {
            int port = Integer.parseInt(child.awaitOut(Pattern.compile("^ready port=(\\d+)")));
            assertTrue(
                    child.agentLines().stream()
                            .anyMatch(l -> l.contains(
                                            "diagnostics build: probe switch registered as MBean io.blockscope:type=ProbeSwitch")
                                    && l.contains("probes: " + PROBES)),
                    child.transcript());

            // all probes in, as at the start
            child.command("work " + ROUNDS);
            Counts expected = Counts.gets(ROUNDS).plus(Counts.returns(ROUNDS));
            assertEquals(expected, Counts.of(Scrape.of(port)), child.transcript());

            // none: nothing counted, not even copies
            assertEquals("none", installed(child, "none"));
            child.command("work " + ROUNDS);
            child.command("copy 10");
            Scrape out = Scrape.of(port);
            assertEquals(expected, Counts.of(out), "counted with the probes out\n" + child.transcript());
            assertEquals(0, out.count("blockscope_copy_to_heap_total", "component", "value"));

            // block-get alone: gets grow, returns do not
            assertEquals("block-get", installed(child, "block-get"));
            child.command("work " + ROUNDS);
            expected = expected.plus(Counts.gets(ROUNDS));
            assertEquals(expected, Counts.of(Scrape.of(port)), child.transcript());

            // all again: both exact
            assertEquals("all", installed(child, "all"));
            child.command("work " + ROUNDS);
            expected = expected.plus(Counts.gets(ROUNDS)).plus(Counts.returns(ROUNDS));
            assertEquals(expected, Counts.of(Scrape.of(port)), child.transcript());

            // paused: the probes stay in but record nothing, copies included; resumed: exact again
            child.command("pause true");
            assertTrue(child.out().contains("pause paused=true"), child.transcript());
            child.command("work " + ROUNDS);
            child.command("copy 10");
            Scrape paused = Scrape.of(port);
            assertEquals(expected, Counts.of(paused), "counted while paused\n" + child.transcript());
            assertEquals(0, paused.count("blockscope_copy_to_heap_total", "component", "value"));
            assertEquals("all", installed(child, "all"), "pausing retransforms nothing");
            child.command("pause false");
            assertTrue(child.out().contains("pause paused=false"), child.transcript());
            child.command("work " + ROUNDS);
            expected = expected.plus(Counts.gets(ROUNDS)).plus(Counts.returns(ROUNDS));
            assertEquals(expected, Counts.of(Scrape.of(port)), child.transcript());

            // a list is read back in profile order; naming every probe is "all"; the same set is no switch
            assertEquals("block-get,block-return", installed(child, "block-return, block-get"));
            Switch same = set(child, "block-get,block-return");
            assertEquals("block-get,block-return", same.installed());
            assertEquals(4, same.switches(), "setting the installed set again is no switch: " + same.lines());
            Switch every = set(child, PROBES);
            assertEquals("all", every.installed());
            assertEquals(5, every.switches(), every.lines().toString());

            // an unknown name: an error naming it and the profile's probes; nothing changes
            Switch bogus = set(child, "block-get,bogus");
            String error = bogus.error();
            assertTrue(error != null && bogus.installed() == null, "no error for bogus: " + bogus.lines());
            assertTrue(error.startsWith("java.lang.IllegalArgumentException: unknown probe(s) bogus;"), error);
            assertTrue(error.endsWith(": " + PROBES.replace(",", ", ")), error);
            Switch plain = set(child, "bogus");
            assertEquals(
                    "java.lang.IllegalArgumentException: unknown probe(s) bogus; give all, none, or a comma-separated"
                            + " list of profile example-server's probes: " + PROBES.replace(",", ", "),
                    plain.error(),
                    plain.lines().toString());
            Switch after = set(child, "all");
            assertEquals("all", after.installed(), "unchanged by the bad request");
            assertEquals(5, after.switches(), after.lines().toString());

            // warm switches: out and in again, timed by the host around the MBean call
            List<String> timings = new ArrayList<>();
            Switch last = null;
            for (int i = 0; i < CYCLES; i++) {
                for (String spec : List.of("none", "all")) {
                    last = set(child, spec);
                    assertEquals(spec, last.installed(), last.lines().toString());
                    timings.add(spec + " " + last.took());
                }
            }
            System.out.println("ProbeSwitchIT: switch times on the child (JDK 17, host-side): " + timings);
            child.agentLines().stream()
                    .filter(l -> l.contains("probe switch"))
                    .forEach(l -> System.out.println("ProbeSwitchIT: child: " + l));
            assertEquals(5 + 2 * CYCLES, last.switches(), last.lines().toString());
            child.command("work " + ROUNDS);
            expected = expected.plus(Counts.gets(ROUNDS)).plus(Counts.returns(ROUNDS));
            Scrape end = Scrape.of(port);
            assertEquals(expected, Counts.of(end), child.transcript());
            for (String probe : PROBES.split(",")) {
                assertEquals(0, end.value("blockscope_agent_advice_errors_total", "probe", probe), probe);
            }
            assertTrue(
                    child.agentLines().stream()
                            .anyMatch(l -> l.contains("probe switch: installed none (was all)")
                                    && l.contains("class(es) retransformed in")),
                    child.transcript());

            child.command("exit");
            assertEquals(0, child.waitFor(), child.transcript());
            assertTrue(child.err().stream().allMatch(l -> l.startsWith("[blockscope]")), child.transcript());
        }
    }

    /**
     * The leak-tracking switch: every probe keeps recording (exact counts), and only the sampling
     * of checkouts for hold time and leaks stops and starts again at the options' rate.
     */
    @Test
    void switchesLeakTrackingAloneWhileEveryProbeRecords() throws Exception {
        try (ChildJvm child = ChildJvm.builder(ChildJvm.java17())
                .diagnosticsAgent("127.0.0.1:0,leak.sample=1,leak.rate=0")
                .classPath(ChildJvm.classPath(SERVER))
                .start(CacheWorkload.class.getName(), "zero-copy")) {
            int port = Integer.parseInt(child.awaitOut(Pattern.compile("^ready port=(\\d+)")));
            child.command("work " + ROUNDS);
            Counts expected = Counts.gets(ROUNDS).plus(Counts.returns(ROUNDS));
            Scrape on = Scrape.of(port);
            double held = on.sum("blockscope_block_hold_seconds_count");
            assertTrue(
                    held > 0,
                    "every checkout tracked at leak.sample=1\n" + on.describe("blockscope_block_hold_seconds"));

            child.command("leak-tracking false");
            assertTrue(child.out().contains("leak-tracking on=false"), child.transcript());
            child.command("work " + ROUNDS);
            expected = expected.plus(Counts.gets(ROUNDS)).plus(Counts.returns(ROUNDS));
            Scrape off = Scrape.of(port);
            assertEquals(expected, Counts.of(off), "the probes still record\n" + child.transcript());
            assertEquals(held, off.sum("blockscope_block_hold_seconds_count"), "no checkout tracked while off");

            child.command("leak-tracking true");
            assertTrue(child.out().contains("leak-tracking on=true"), child.transcript());
            child.command("work " + ROUNDS);
            Scrape again = Scrape.of(port);
            assertTrue(again.sum("blockscope_block_hold_seconds_count") > held, "tracked again once on");
            child.command("exit");
            assertEquals(0, child.waitFor(), child.transcript());
        }
        try (ChildJvm child = ChildJvm.builder(ChildJvm.java17())
                .diagnosticsAgent("127.0.0.1:0,leak.sample=0")
                .classPath(ChildJvm.classPath(SERVER))
                .start(CacheWorkload.class.getName(), "zero-copy")) {
            child.awaitOut(Pattern.compile("^ready port=(\\d+)"));
            child.command("leak-tracking true");
            assertTrue(
                    child.out()
                            .contains("leak-tracking error java.lang.IllegalStateException: leak tracking is off in the"
                                    + " agent's options (leak.sample=0): there is none to turn on"),
                    child.transcript());
            child.command("exit");
            assertEquals(0, child.waitFor(), child.transcript());
        }
    }

    @Test
    void theProductionJarHasNoSwitch() throws Exception {
        try (ChildJvm child = ChildJvm.builder(ChildJvm.java17())
                .agent("127.0.0.1:0")
                .classPath(ChildJvm.classPath(SERVER))
                .start(CacheWorkload.class.getName(), "zero-copy")) {
            int port = Integer.parseInt(child.awaitOut(Pattern.compile("^ready port=(\\d+)")));
            Switch absent = set(child, "none");
            assertTrue(
                    absent.error() != null
                            && absent.error().startsWith("javax.management.InstanceNotFoundException")
                            && absent.error().contains("io.blockscope:type=ProbeSwitch"),
                    absent.lines() + "\n" + child.transcript());
            assertEquals(null, absent.installed(), absent.lines().toString());
            assertFalse(child.agentLines().stream().anyMatch(l -> l.contains("probe switch")), child.transcript());
            child.command("work " + ROUNDS);
            assertEquals(
                    Counts.gets(ROUNDS).plus(Counts.returns(ROUNDS)), Counts.of(Scrape.of(port)), child.transcript());
            child.command("exit");
            assertEquals(0, child.waitFor(), child.transcript());
        }
    }

    /** The option of earlier builds is bad input to the production jar: one line, and the host runs on. */
    @Test
    void theProductionJarRefusesTheOptionInOneLineAndTheHostRunsOn() throws Exception {
        try (ChildJvm child = ChildJvm.builder(ChildJvm.java17())
                .agent("127.0.0.1:0,probe.switch=true")
                .classPath(ChildJvm.classPath(SERVER))
                .start(CacheWorkload.class.getName(), "zero-copy")) {
            child.awaitOut(Pattern.compile("^ready port=(.*)"));
            List<String> refusals = child.agentLines().stream()
                    .filter(l -> l.contains("probe.switch is not an option of the agent"))
                    .toList();
            assertEquals(1, refusals.size(), child.transcript());
            assertTrue(refusals.get(0).contains("blockscope-agent-diagnostics.jar"), refusals.get(0));
            assertTrue(refusals.get(0).contains("agent disabled, the application runs without it"), refusals.get(0));
            child.command("work " + ROUNDS); // waits for the host's "ok work": it ran without the agent
            child.command("exit");
            assertEquals(0, child.waitFor(), child.transcript());
        }
    }

    /** What the host printed for one {@code probes SPEC} command. */
    private record Switch(String installed, long switches, String took, String error, List<String> lines) {}

    /** Runs {@code probes SPEC} on the host. */
    private static Switch set(ChildJvm child, String spec) throws Exception {
        int before = child.out().size();
        child.command("probes " + spec);
        List<String> lines = new ArrayList<>();
        for (String line : child.out().subList(before, child.out().size())) {
            if (line.startsWith("probes ")) {
                lines.add(line);
            }
        }
        String installed = value(lines, "probes installed=");
        String switches = value(lines, "probes switches=");
        return new Switch(
                installed,
                switches == null ? -1 : Long.parseLong(switches),
                value(lines, "probes took "),
                value(lines, "probes error "),
                lines);
    }

    /** The installed set read back after setting {@code spec}; fails on an error line. */
    private static String installed(ChildJvm child, String spec) throws Exception {
        Switch result = set(child, spec);
        if (result.error() != null || result.installed() == null) {
            throw new AssertionError("probes " + spec + ": " + result.lines() + "\n" + child.transcript());
        }
        return result.installed();
    }

    private static String value(List<String> lines, String prefix) {
        for (String line : lines) {
            if (line.startsWith(prefix)) {
                return line.substring(prefix.length());
            }
        }
        return null;
    }

    /** The block cache counters of one scrape, by tier and result. */
    private record Counts(
            double l1Hit, double l1Miss, double l2Hit, double l2Miss, double l1Returns, double l2Returns) {

        static Counts of(Scrape scrape) {
            return new Counts(
                    scrape.count("blockscope_block_cache_gets_total", "tier", "l1", "result", "hit"),
                    scrape.count("blockscope_block_cache_gets_total", "tier", "l1", "result", "miss"),
                    scrape.count("blockscope_block_cache_gets_total", "tier", "l2", "result", "hit"),
                    scrape.count("blockscope_block_cache_gets_total", "tier", "l2", "result", "miss"),
                    scrape.count("blockscope_block_cache_returns_total", "tier", "l1"),
                    scrape.count("blockscope_block_cache_returns_total", "tier", "l2"));
        }

        /** What {@code rounds} rounds of {@code work} add to the gets (see {@link CacheWorkload}). */
        static Counts gets(int rounds) {
            int data = CacheWorkload.DATA_SIZES.length;
            int meta = CacheWorkload.META_BLOCKS;
            int absent = CacheWorkload.ABSENT_KEYS;
            return new Counts(rounds * meta, rounds * (data + absent), rounds * data, rounds * absent, 0, 0);
        }

        /** What {@code rounds} rounds of {@code work} add to the returns. */
        static Counts returns(int rounds) {
            return new Counts(0, 0, 0, 0, rounds * CacheWorkload.META_BLOCKS, rounds * CacheWorkload.DATA_SIZES.length);
        }

        Counts plus(Counts o) {
            return new Counts(
                    l1Hit + o.l1Hit,
                    l1Miss + o.l1Miss,
                    l2Hit + o.l2Hit,
                    l2Miss + o.l2Miss,
                    l1Returns + o.l1Returns,
                    l2Returns + o.l2Returns);
        }
    }
}
