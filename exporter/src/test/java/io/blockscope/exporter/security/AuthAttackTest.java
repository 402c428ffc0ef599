package io.blockscope.exporter.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.exporter.auth.PasswordHash;
import io.blockscope.exporter.testing.RawHttp;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Issue 18, finding 1: callers without the password must not be able to burn the host's CPU. A host
 * with a production-strength hash (PBKDF2-SHA256, 600,000 iterations) is attacked by 8 threads from
 * 4 loopback addresses sending wrong credentials for 8 s; the host's whole CPU time over the attack
 * must stay far below what unrationed hashing costs (one hash is 150-550 ms of a core, so unrationed
 * the attack costs several CPU seconds per second), and Prometheus, whose header was verified
 * before, keeps scraping.
 */
class AuthAttackTest {

    private static final int ATTACKERS = 8;
    private static final long ATTACK_MS = 8_000;
    /**
     * Each attacker waits this long after an answer: 8 attackers then send up to 400 requests a second, which
     * measures what the password check costs rather than how many connections a flood can open.
     */
    private static final long PAUSE_MS = 20;
    /**
     * With the rations (3 per address, 4 overall, then one per 10 s) 4 hashes in the window, plus
     * ~2,700 refusals and 15 scrapes: measured 3.6 s on a quiet machine and 4.2 s beside another job
     * (2 cores). Without rations the one-at-a-time hashing keeps a core busy: 9.4 s measured (bursts
     * raised to a million). The budget sits between, with room on both sides.
     */
    private static final double CPU_BUDGET_SECONDS = 6.0;

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] scrape(String authorization) {
        return RawHttp.bytes("GET /metrics HTTP/1.1\r\nHost: localhost\r\nAuthorization: " + authorization
                + "\r\nConnection: close\r\n\r\n");
    }

    @Test
    void wrongCredentialsCostTheHostLittleAndRightOnesKeepWorking() throws Exception {
        String hash = PasswordHash.create(PasswordHash.Algorithm.PBKDF2_SHA256, 600_000, "correct horse".toCharArray())
                .toString();
        try (HostProcess host = HostProcess.start(
                Map.of(), List.of(), "auth.user=prometheus", "auth.password.hash=" + hash, "jfr=off", "threads=4")) {
            String good = basic("prometheus", "correct horse");
            assertEquals(200, RawHttp.send("127.0.0.1", host.port(), scrape(good), 10_000).status, host.toString());

            AtomicInteger denied = new AtomicInteger();
            AtomicInteger throttled = new AtomicInteger();
            AtomicInteger other = new AtomicInteger();
            java.util.concurrent.atomic.AtomicReference<String> otherSample =
                    new java.util.concurrent.atomic.AtomicReference<>();
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ATTACK_MS);
            double cpuBefore = host.cpuSeconds();
            List<Thread> attackers = new ArrayList<>();
            for (int i = 0; i < ATTACKERS; i++) {
                String from = "127.0.0." + (2 + i % 4);
                int id = i;
                Thread t = new Thread(() -> {
                    int n = 0;
                    while (System.nanoTime() < end) {
                        try {
                            RawHttp.Answer answer = RawHttp.send(
                                    from,
                                    host.port(),
                                    scrape(basic(n % 2 == 0 ? "prometheus" : "admin", "guess-" + id + "-" + n++)),
                                    10_000);
                            int status = answer.status;
                            if (status != 401 && status != 429) {
                                otherSample.compareAndSet(null, answer.toString());
                            }
                            (status == 401 ? denied : status == 429 ? throttled : other).incrementAndGet();
                            Thread.sleep(PAUSE_MS);
                        } catch (Exception e) {
                            otherSample.compareAndSet(null, e.toString());
                            other.incrementAndGet();
                        }
                    }
                });
                t.start();
                attackers.add(t);
            }
            int scrapes = 0;
            while (System.nanoTime() < end) {
                long start = System.nanoTime();
                RawHttp.Answer answer = RawHttp.send("127.0.0.1", host.port(), scrape(good), 10_000);
                assertEquals(200, answer.status, "a verified scraper must keep getting metrics during the attack");
                // One verified scrape hashes PBKDF2 600,000 rounds itself (~0.5 s of CPU here); 5 s
                // leaves room for a loaded 2-core machine (2 s failed once beside six builds),
                // while an unrationed attack keeps every worker hashing and the scrape queued.
                assertTrue(
                        System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5),
                        "a verified scrape took over 5 s during the attack");
                scrapes++;
                Thread.sleep(500);
            }
            for (Thread t : attackers) {
                t.join();
            }
            double cpu = host.cpuSeconds() - cpuBefore;
            System.out.printf(
                    "auth attack: %d attackers %d ms: host CPU %.2f s, %d x 401, %d x 429, %d other; %d scrapes ok%n",
                    ATTACKERS, ATTACK_MS, cpu, denied.get(), throttled.get(), other.get(), scrapes);
            assertTrue(
                    cpu < CPU_BUDGET_SECONDS,
                    "the attack cost the host " + cpu + " CPU seconds in " + ATTACK_MS + " ms (budget "
                            + CPU_BUDGET_SECONDS + ")");
            assertTrue(throttled.get() > denied.get(), "most wrong attempts must be throttled, not hashed");
            assertTrue(denied.get() >= 1, "a wrong password is still told so while within its ration");
            assertEquals(0, other.get(), "every attempt gets 401 or 429; got " + otherSample.get());
            assertTrue(host.isAlive());
        }
    }
}
