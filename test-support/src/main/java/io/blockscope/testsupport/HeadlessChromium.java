package io.blockscope.testsupport;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Headless Chromium run to its end, with a profile of its own in a test's folder: a page as a browser shows it. */
public final class HeadlessChromium {

    private final Path binary;
    private final Path dir;

    private HeadlessChromium(Path binary, Path dir) {
        this.binary = binary;
        this.dir = dir;
    }

    /** Chromium keeping its profile and output in {@code dir}. */
    public static HeadlessChromium in(Path dir) {
        return new HeadlessChromium(binary(), dir);
    }

    /** Debian's chromium (installed by .ci/test) on PATH, or {@code -Dblockscope.chromium=PATH}. */
    public static Path binary() {
        String configured = System.getProperty("blockscope.chromium");
        if (configured != null) {
            return Path.of(configured);
        }
        for (String folder : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            for (String name : new String[] {"chromium", "chromium-browser"}) {
                Path candidate = Path.of(folder, name);
                if (Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
        }
        throw new IllegalStateException("headless Chromium not found on PATH: install Debian's chromium"
                + " (apt-get install chromium; bash .ci/test does) or pass -Dblockscope.chromium=PATH");
    }

    /** Runs it with {@code args} (e.g. {@code --dump-dom URL}); its stdout, failing on a non-zero exit or after 60 s. */
    public String run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                binary.toString(),
                "--headless",
                "--no-sandbox", // the tests may run as root, where Chromium's sandbox cannot start
                "--disable-gpu",
                "--hide-scrollbars",
                "--no-first-run",
                "--user-data-dir=" + dir.resolve("chromium-profile")));
        command.addAll(List.of(args));
        Path out = dir.resolve("chromium.out");
        Path err = dir.resolve("chromium.err");
        Process p = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish in 60 s: " + command);
        }
        if (p.exitValue() != 0) {
            throw new AssertionError(
                    "chromium failed (" + p.exitValue() + "): " + command + "\n" + Files.readString(err));
        }
        return Files.readString(out, StandardCharsets.UTF_8);
    }
}
