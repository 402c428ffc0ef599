package io.blockscope.server.demo;

import io.blockscope.server.cache.BlockCache;
import io.blockscope.server.region.Region;
import io.blockscope.server.storefile.StoreFileReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Demo only: watches a small file and runs the {@link LeakingReader} while it says {@code leak=on}.
 * A file rather than an RPC so that the demo adds no network surface to the server: whoever may
 * write the file already controls the process.
 *
 * <p>The file holds {@code key=value} lines; {@code #} starts a comment. Keys: {@code leak}
 * ({@code on}/{@code off}), {@code leak.one-in} (leak one checkout in N, default 20) and
 * {@code leak.blocks-per-second} (default 200). A missing file means everything off. The file is
 * read twice a second; an unknown line is reported once on stderr and ignored.
 */
public final class DemoControl implements AutoCloseable {

    static final long POLL_MS = 500;

    private final Path file;
    private final BlockCache cache;
    private final Collection<Region> regions;
    private final PrintStream log;
    private final Set<String> reported = new HashSet<>();
    private final Thread thread;
    private volatile boolean closed;
    private List<StoreFileReader> files;
    private LeakingReader reader;

    private DemoControl(Path file, BlockCache cache, Collection<Region> regions, PrintStream log) {
        this.file = file;
        this.cache = cache;
        this.regions = regions;
        this.log = log;
        this.thread = new Thread(this::run, "demo-control");
        this.thread.setDaemon(true);
    }

    /** Starts watching {@code file}; null when {@code file} is null (no demo). */
    public static DemoControl start(Path file, BlockCache cache, Collection<Region> regions, PrintStream log) {
        if (file == null) {
            return null;
        }
        DemoControl control = new DemoControl(file, cache, regions, log);
        log.println("[demo] watching " + file + " (leak=on|off)");
        control.thread.start();
        return control;
    }

    /** The settings of the file's text. */
    static final class Settings {
        boolean leak;
        int leakOneIn = 20;
        int blocksPerSecond = 200;
    }

    Settings parse(String text) {
        Settings s = new Settings();
        for (String raw : text.split("\n", -1)) {
            String line = raw.replaceFirst("#.*", "").trim();
            if (line.isEmpty()) {
                continue;
            }
            int eq = line.indexOf('=');
            String key = eq < 0 ? line : line.substring(0, eq).trim();
            String value = eq < 0 ? "" : line.substring(eq + 1).trim().toLowerCase(Locale.ROOT);
            try {
                switch (key) {
                    case "leak":
                        s.leak = onOff(value);
                        break;
                    case "leak.one-in":
                        s.leakOneIn = positive(value);
                        break;
                    case "leak.blocks-per-second":
                        s.blocksPerSecond = positive(value);
                        break;
                    default:
                        throw new IllegalArgumentException(
                                "unknown key; accepted: leak, leak.one-in, leak.blocks-per-second");
                }
            } catch (IllegalArgumentException e) {
                if (reported.add(line)) {
                    log.println("[demo] ignoring '" + line + "' in " + file + ": " + e.getMessage());
                }
            }
        }
        return s;
    }

    private static boolean onOff(String value) {
        if (value.equals("on") || value.equals("true")) {
            return true;
        }
        if (value.equals("off") || value.equals("false")) {
            return false;
        }
        throw new IllegalArgumentException("expected on or off");
    }

    private static int positive(String value) {
        try {
            int n = Integer.parseInt(value);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("expected a positive whole number");
    }

    private void run() {
        Settings settings = new Settings();
        long nextRead = 0;
        try {
            while (!closed) {
                long now = System.nanoTime();
                if (now >= nextRead) {
                    settings = parse(read());
                    nextRead = now + TimeUnit.MILLISECONDS.toNanos(POLL_MS);
                }
                if (settings.leak) {
                    leakFor(settings);
                } else {
                    stopLeaking();
                    Thread.sleep(POLL_MS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            log.println("[demo] the demo control stopped: " + e);
        } finally {
            stopLeaking();
        }
    }

    /** About a tenth of a second of leaking reads at the configured pace. */
    private void leakFor(Settings settings) throws IOException, InterruptedException {
        if (reader == null || reader.leakOneIn() != settings.leakOneIn) {
            stopLeaking();
            files = openFiles();
            reader = new LeakingReader(cache, files, settings.leakOneIn);
            log.println("[demo] leaking reader on: one checkout in " + settings.leakOneIn + " is never returned");
        }
        int batch = Math.max(1, settings.blocksPerSecond / 10);
        long start = System.nanoTime();
        reader.readSome(batch);
        long sleepMs = 100 - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        if (sleepMs > 0) {
            Thread.sleep(sleepMs);
        }
    }

    private void stopLeaking() {
        if (reader != null) {
            log.println("[demo] leaking reader off after " + reader.checkouts() + " checkouts, " + reader.leaked()
                    + " never returned");
            reader = null;
        }
        if (files != null) {
            for (StoreFileReader f : files) {
                try {
                    f.close();
                } catch (IOException e) {
                    // read-only files: nothing to lose
                }
            }
            files = null;
        }
    }

    private List<StoreFileReader> openFiles() throws IOException {
        List<StoreFileReader> opened = new ArrayList<>();
        for (Region region : regions) {
            for (String name : region.manifest().storeFiles()) {
                opened.add(StoreFileReader.open(region.directory().resolve(name)));
            }
        }
        return opened;
    }

    private String read() throws IOException {
        try {
            return Files.readString(file);
        } catch (NoSuchFileException e) {
            return "";
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
