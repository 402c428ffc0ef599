package io.blockscope.exporter.self;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Proxy;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class AgentCpuTest {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** A thread that burns CPU, reports its own CPU time, then waits until released before ending. */
    private static final class Worker {
        final CountDownLatch spun = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicLong cpu = new AtomicLong();
        final Thread thread;

        Worker(String name, long spinMillis, Runnable during) {
            thread = new Thread(
                    () -> {
                        spin(spinMillis);
                        during.run();
                        cpu.set(THREADS.getCurrentThreadCpuTime());
                        spun.countDown();
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        spin(20); // after the last scrape that saw it alive: not counted
                    },
                    name);
            thread.setDaemon(true);
            thread.start();
        }

        void end() throws InterruptedException {
            release.countDown();
            thread.join();
        }
    }

    @Test
    void aPartGrowsByTheCpuItsThreadSpentAndKeepsItWhenTheThreadEnds() throws Exception {
        // part "other", which only this class's threads use: other tests leave endpoint and live-page
        // threads running in this JVM
        AgentCpu cpu = new AgentCpu();
        double before = value(cpu.collect(), "other");
        Worker worker = new Worker("blockscope-cpu-test-part", 100, () -> {});
        worker.spun.await();
        double alive = value(cpu.collect(), "other");
        assertTrue(alive - before >= worker.cpu.get() / 1e9 - 1e-9, alive + " - " + before + " vs " + worker.cpu);
        assertTrue(worker.cpu.get() > 50_000_000L, "the worker spun: " + worker.cpu);
        worker.end();
        double ended = value(cpu.collect(), "other");
        assertEquals(alive, ended, 1e-9, "an ended thread's time stays, as last seen");
        assertEquals(ended, value(cpu.collect(), "other"), 1e-9);
    }

    @Test
    void hostThreadsAreNotCountedAndOtherAgentThreadsAre() throws Exception {
        AgentCpu cpu = new AgentCpu();
        MetricSnapshots first = cpu.collect();
        Worker host = new Worker("pool-1-thread-1", 60, () -> {});
        Worker agent = new Worker("blockscope-something-new", 60, () -> {});
        host.spun.await();
        agent.spun.await();
        MetricSnapshots second = cpu.collect();
        assertTrue(value(second, "other") - value(first, "other") >= agent.cpu.get() / 1e9 - 1e-9);
        double sumBefore = 0;
        double sumAfter = 0;
        for (String part : AgentCpu.PARTS) {
            sumBefore += value(first, part);
            sumAfter += value(second, part);
        }
        // the host's thread spent as much again, and none of it is in any part
        assertTrue(sumAfter - sumBefore < (agent.cpu.get() + host.cpu.get()) / 1e9, sumAfter + " " + sumBefore);
        host.end();
        agent.end();
    }

    @Test
    void scrapesAreMeasuredOnTheirThreadAndTheEndpointPartIsTheRestOfItsThreads() throws Exception {
        AgentCpu cpu = new AgentCpu();
        AtomicLong scraped = new AtomicLong();
        Worker endpoint = new Worker("blockscope-exporter-42", 50, () -> {
            long start = cpu.scrapeStarted();
            spin(60);
            cpu.scrapeDone(start);
            scraped.set(THREADS.getCurrentThreadCpuTime() - start);
        });
        endpoint.spun.await();
        MetricSnapshots s = cpu.collect();
        double scrape = value(s, "scrape");
        assertTrue(scrape > 0.03 && scrape <= scraped.get() / 1e9 + 1e-9, scrape + " vs " + scraped);
        // the scrape moved out of the endpoint part, not lost (other tests' endpoint threads may add)
        double total = scrape + value(s, "endpoint");
        assertTrue(total >= endpoint.cpu.get() / 1e9 - 1e-9, total + " vs " + endpoint.cpu);
        cpu.scrapeDone(-1); // not measured: adds nothing
        assertEquals(scrape, value(cpu.collect(), "scrape"), 1e-9);
        endpoint.end();
        assertTrue(value(cpu.collect(), "endpoint") >= value(s, "endpoint"), "never decreases");
    }

    @Test
    void aScrapeInProgressIsNotChargedToTheEndpoint() throws Exception {
        AgentCpu cpu = new AgentCpu();
        double before = value(cpu.collect(), "endpoint"); // other tests' endpoints may still run
        AtomicLong endpointDuring = new AtomicLong();
        AtomicLong scrapeDuring = new AtomicLong();
        Worker endpoint = new Worker("blockscope-exporter-43", 0, () -> {
            long start = cpu.scrapeStarted();
            spin(80);
            MetricSnapshots during = cpu.collect(); // a scrape collecting its own series
            endpointDuring.set(Math.round(value(during, "endpoint") * 1e9));
            scrapeDuring.set(Math.round(value(during, "scrape") * 1e9));
            cpu.scrapeDone(start);
        });
        endpoint.spun.await();
        assertEquals(0, scrapeDuring.get(), "added once done");
        assertTrue(endpointDuring.get() - before * 1e9 < 40_000_000L, "endpoint while scraping: " + endpointDuring);
        MetricSnapshots after = cpu.collect();
        assertTrue(value(after, "scrape") > 0.07, "scrape: " + value(after, "scrape"));
        endpoint.end();
    }

    @Test
    void theJfrPartIsTheThreadItIsToldOfNotAnyOfTheSameName() throws Exception {
        AgentCpu cpu = new AgentCpu();
        Worker host = new Worker("blockscope-jfr-gc", 40, () -> {});
        Worker agent = new Worker("blockscope-jfr-gc", 40, () -> {});
        host.spun.await();
        agent.spun.await();
        assertEquals(0, value(cpu.collect(), "jfr"), "a scrape before the stream started");
        cpu.jfrThread(agent.thread);
        double jfr = value(cpu.collect(), "jfr");
        assertEquals(agent.cpu.get() / 1e9, jfr, 1e-3);
        host.end();
        agent.end();
        assertEquals(jfr, value(cpu.collect(), "jfr"), 1e-9);
    }

    @Test
    void startupIsAddedOnceReported() {
        AgentCpu cpu = new AgentCpu();
        assertEquals(0, value(cpu.collect(), "startup"));
        cpu.startup(1_500_000_000L);
        cpu.startup(-5);
        assertEquals(1.5, value(cpu.collect(), "startup"), 1e-9);
    }

    @Test
    void threadNamesMapToTheirParts() {
        assertEquals("endpoint", AgentCpu.PARTS[AgentCpu.part("blockscope-exporter-io-1-1")]);
        assertEquals("endpoint", AgentCpu.PARTS[AgentCpu.part("blockscope-exporter-17")]);
        assertEquals(-1, AgentCpu.part("blockscope-jfr-gc"), "a host's own GC stream has this name too");
        assertEquals("jfr_jdk", AgentCpu.PARTS[AgentCpu.part("JFR Recorder Thread")]);
        assertEquals("jfr_jdk", AgentCpu.PARTS[AgentCpu.part("JFR Periodic Tasks")]);
        assertEquals("live_page", AgentCpu.PARTS[AgentCpu.part("blockscope-live-page")]);
        assertEquals(-1, AgentCpu.part("blockscope-start"));
        assertEquals(-1, AgentCpu.part("main"));
    }

    @Test
    void withoutThreadCpuTimeTheSeriesIsLeftOut() {
        ThreadMXBean off = (ThreadMXBean) Proxy.newProxyInstance(
                ThreadMXBean.class.getClassLoader(), new Class<?>[] {ThreadMXBean.class}, (p, m, a) -> {
                    if (m.getReturnType() == boolean.class) {
                        return false;
                    }
                    throw new AssertionError("not read when unsupported: " + m.getName());
                });
        AgentCpu cpu = new AgentCpu(off);
        assertEquals(-1, cpu.scrapeStarted());
        cpu.scrapeDone(-1);
        assertEquals(0, cpu.collect().size());
    }

    private static double value(MetricSnapshots snapshots, String part) {
        CounterSnapshot counter = (CounterSnapshot) snapshots.get(0);
        assertEquals("blockscope_agent_cpu_seconds", counter.getMetadata().getName());
        for (CounterSnapshot.CounterDataPointSnapshot p : counter.getDataPoints()) {
            if (part.equals(p.getLabels().get("part"))) {
                return p.getValue();
            }
        }
        throw new AssertionError("no part " + part);
    }

    private static void spin(long millis) {
        long end = THREADS.getCurrentThreadCpuTime() + millis * 1_000_000L;
        long x = 0;
        while (THREADS.getCurrentThreadCpuTime() < end) {
            x += System.nanoTime() % 7;
        }
        if (x == 42) {
            System.out.print("");
        }
    }
}
