package io.blockscope.server.pe;

import java.io.PrintStream;
import java.util.concurrent.atomic.LongAdder;

/**
 * The one-line status PE keeps on stderr while it runs (these runs take minutes): phase, elapsed and
 * estimated total time, and the live operation rate. On a terminal the line is redrawn in place;
 * otherwise (a log file, CI) a full line is printed every ten seconds.
 */
final class ProgressLine implements AutoCloseable {

    private final PrintStream out;
    private final boolean enabled;
    private final boolean terminal;
    private final long startNanos = System.nanoTime();
    private final LongAdder ops = new LongAdder();
    private final Thread printer;
    private volatile String phase = "starting";
    private volatile long estimatedTotalNanos;
    private volatile boolean closed;
    private int lastLength;

    ProgressLine(PrintStream out, boolean enabled) {
        this.out = out;
        this.enabled = enabled;
        this.terminal = System.console() != null;
        this.printer = new Thread(this::loop, "pe-progress");
        this.printer.setDaemon(true);
        if (enabled) {
            printer.start();
        }
    }

    /** Counter the workers bump once per operation. */
    LongAdder ops() {
        return ops;
    }

    void phase(String phase) {
        this.phase = phase;
    }

    void estimatedTotal(long nanos) {
        this.estimatedTotalNanos = nanos;
    }

    /** Prints a line of its own on stderr (not overwritten by the progress line). */
    synchronized void println(String line) {
        emit(out, line);
    }

    /** Prints a result line on {@code target} (stdout), clearing the progress line first. */
    synchronized void emit(PrintStream target, String line) {
        clear();
        target.println(line);
        target.flush();
    }

    private void loop() {
        long lastOps = 0;
        long lastNanos = System.nanoTime();
        long lastPrinted = 0;
        while (!closed) {
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            long count = ops.sum();
            double rate = (count - lastOps) / ((now - lastNanos) / 1e9);
            lastOps = count;
            lastNanos = now;
            if (!terminal && now - lastPrinted < 10_000_000_000L) {
                continue;
            }
            lastPrinted = now;
            String line = String.format(
                    "[pe] %s | %s / ~%s | %,.0f ops/s",
                    phase, clock(now - startNanos), clock(Math.max(estimatedTotalNanos, now - startNanos)), rate);
            print(line);
        }
    }

    private synchronized void print(String line) {
        if (closed) {
            return;
        }
        if (terminal) {
            String padded = line.length() < lastLength ? line + " ".repeat(lastLength - line.length()) : line;
            out.print("\r" + padded);
            lastLength = line.length();
        } else {
            out.println(line);
        }
        out.flush();
    }

    private void clear() {
        if (terminal && lastLength > 0) {
            out.print("\r" + " ".repeat(lastLength) + "\r");
            lastLength = 0;
        }
    }

    private static String clock(long nanos) {
        long s = nanos / 1_000_000_000L;
        return s >= 60 ? (s / 60) + "m" + String.format("%02d", s % 60) + "s" : s + "s";
    }

    @Override
    public synchronized void close() {
        closed = true;
        printer.interrupt();
        if (enabled) {
            clear();
            out.flush();
        }
    }
}
