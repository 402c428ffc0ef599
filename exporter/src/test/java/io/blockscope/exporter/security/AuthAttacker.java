package io.blockscope.exporter.security;

import io.blockscope.exporter.testing.RawHttp;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The attack of docs/benchmarks.md ("Unauthenticated traffic against the agent"): {@code THREADS}
 * clients from 127.0.0.2..5 send wrong basic-auth credentials to {@code PORT}'s /metrics for {@code
 * SECONDS}, each pausing {@code PAUSE_MS} after an answer, and print how the answers were spread.
 *
 * <p>{@code java -cp exporter/target/test-classes io.blockscope.exporter.security.AuthAttacker PORT
 * SECONDS THREADS PAUSE_MS}
 */
public final class AuthAttacker {

    private AuthAttacker() {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        long seconds = Long.parseLong(args[1]);
        int threads = Integer.parseInt(args[2]);
        long pauseMs = Long.parseLong(args[3]);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        Map<Integer, AtomicInteger> answers = new ConcurrentHashMap<>();
        Thread[] attackers = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            String from = "127.0.0." + (2 + i % 4);
            int id = i;
            attackers[i] = new Thread(() -> {
                int n = 0;
                while (System.nanoTime() < end) {
                    String credentials = (n % 2 == 0 ? "prometheus" : "admin") + ":guess-" + id + "-" + n++;
                    String header =
                            "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));
                    int status;
                    try {
                        status = RawHttp.send(
                                        from,
                                        port,
                                        RawHttp.bytes("GET /metrics HTTP/1.1\r\nHost: x\r\nAuthorization: " + header
                                                + "\r\nConnection: close\r\n\r\n"),
                                        30_000)
                                .status;
                        Thread.sleep(pauseMs);
                    } catch (Exception e) {
                        status = -2;
                    }
                    answers.computeIfAbsent(status, k -> new AtomicInteger()).incrementAndGet();
                }
            });
            attackers[i].start();
        }
        for (Thread t : attackers) {
            t.join();
        }
        System.out.println("answers (status -> count): " + new TreeMap<>(answers));
    }
}
