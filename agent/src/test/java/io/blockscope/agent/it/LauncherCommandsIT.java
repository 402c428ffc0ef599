package io.blockscope.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.exporter.testing.TestJdks;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code java -jar blockscope-agent.jar --help | --version | <unknown>} on the built jar, on each
 * JDK the agent serves: help and version exit 0 with their text on stdout; an unknown command exits
 * 1 and says which commands there are.
 */
class LauncherCommandsIT {

    @ParameterizedTest(name = "JDK {0}")
    @ValueSource(ints = {11, 17, 25})
    void helpPrintsUsageAndExitsZero(int jdk) throws Exception {
        for (String help : List.of("--help", "-h")) {
            Run run = run(jdk, help);
            assertEquals(0, run.status, run.toString());
            assertTrue(run.out.startsWith("usage: java -jar blockscope-agent.jar attach <pid>"), run.toString());
            assertTrue(run.out.contains("--help | --version"), run.toString());
            assertTrue(run.out.contains("leak.sample"), "names the agent's options: " + run);
            assertTrue(run.out.contains("jvm.metrics") && run.out.contains("gc.source"), "and the exporter's: " + run);
            assertEquals("", run.err, run.toString());
        }
    }

    @ParameterizedTest(name = "JDK {0}")
    @ValueSource(ints = {11, 17, 25})
    void versionPrintsTheManifestVersionAndExitsZero(int jdk) throws Exception {
        String version;
        try (JarFile jar = new JarFile(ChildJvm.agentJar().toFile())) {
            version = jar.getManifest().getMainAttributes().getValue("Implementation-Version");
        }
        assertTrue(version != null && !version.isBlank(), "the manifest has an Implementation-Version");
        Run run = run(jdk, "--version");
        assertEquals(0, run.status, run.toString());
        assertEquals("blockscope-agent " + version + "\n", run.out, run.toString());
        assertEquals("", run.err, run.toString());
    }

    @ParameterizedTest(name = "JDK {0}")
    @ValueSource(ints = {11, 17, 25})
    void anUnknownCommandExitsOneAndSaysWhichCommandsThereAre(int jdk) throws Exception {
        Run run = run(jdk, "--frobnicate");
        assertEquals(1, run.status, run.toString());
        assertTrue(
                run.err.startsWith(
                        "blockscope: unknown command '--frobnicate'; the commands are attach, --help and --version"),
                run.toString());
        assertTrue(run.err.contains("usage: java -jar blockscope-agent.jar attach <pid>"), run.toString());
        assertFalse(run.err.contains("\tat "), "no stack trace: " + run);
        assertEquals("", run.out, run.toString());
    }

    private static Run run(int jdk, String argument) throws Exception {
        Path java = jdk == 17 ? Path.of(ChildJvm.java17()) : TestJdks.require(jdk);
        Process p = new ProcessBuilder(
                        List.of(java.toString(), "-jar", ChildJvm.agentJar().toString(), argument))
                .start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the launcher did not end");
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    private static final class Run {
        final int status;
        final String out;
        final String err;

        Run(int status, String out, String err) {
            this.status = status;
            this.out = out;
            this.err = err;
        }

        @Override
        public String toString() {
            return "status " + status + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }
}
