package io.blockscope.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.agent.entry.EntryBytecodeTest;
import io.blockscope.exporter.testing.TestJdks;
import io.blockscope.testsupport.AgentLauncher;
import io.blockscope.testsupport.Command;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The shipped jar's entry points: what its manifest names is the Java 8 entry, as Java 8 class
 * files referring only to Java 8 classes ({@link EntryBytecodeTest} checks the same on the compiled
 * classes; this checks what shading put in the jar), and the launcher's entry runs on each JDK.
 */
class EntryJarIT {

    @Test
    void manifestNamesTheJava8EntryAndTheJarHoldsItAsJava8ClassFiles() throws Exception {
        try (JarFile jar = new JarFile(ChildJvm.agentJar().toFile())) {
            Attributes main = jar.getManifest().getMainAttributes();
            assertEquals("io.blockscope.agent.entry.AgentEntry", main.getValue("Premain-Class"));
            assertEquals("io.blockscope.agent.entry.AgentEntry", main.getValue("Agent-Class"));
            assertEquals("io.blockscope.agent.entry.LauncherEntry", main.getValue("Main-Class"));
            for (String name : EntryBytecodeTest.ENTRY_CLASSES) {
                try (InputStream in = jar.getInputStream(jar.getEntry(name + ".class"))) {
                    EntryBytecodeTest.ClassFile file = EntryBytecodeTest.ClassFile.read(in);
                    assertEquals(52, file.major, name);
                    for (String referenced : file.classes) {
                        assertTrue(
                                referenced.startsWith("io/blockscope/agent/entry/")
                                        || referenced.startsWith("[")
                                        || EntryBytecodeTest.JAVA8_CLASSES.contains(referenced),
                                name + " in the jar refers to " + referenced);
                    }
                }
            }
        }
    }

    /**
     * The "too old" path on a real JVM. No Java 8 runs here; JDK 11 (unlike 17+) lets the command
     * line set {@code java.specification.version}, so a JDK 11 told it is 1.8 runs the real, unchanged
     * check on the real property: the agent and the launcher each print their one line and return,
     * and the only classes the JVM loads from the jar are the three Java 8 entry classes.
     */
    @Test
    void onJava8TheEntryPrintsOneLineLoadsNothingElseAndTheHostRuns() throws Exception {
        Path java = TestJdks.require(11);
        String jar = ChildJvm.agentJar().toString();
        Process p = new ProcessBuilder(List.of(
                        java.toString(),
                        "-Djava.specification.version=1.8",
                        "-Xlog:class+load=info",
                        "-javaagent:" + jar + "=127.0.0.1:0",
                        "-jar",
                        jar,
                        "attach",
                        "1"))
                .redirectErrorStream(true)
                .start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the JVM did not end");
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        List<String> lines = output.lines().toList();
        assertEquals(0, p.exitValue(), output);
        List<String> blockscope =
                lines.stream().filter(l -> l.startsWith("[blockscope]")).toList();
        assertEquals(2, blockscope.size(), output);
        // java.version stays the real one (the JVM ignores a -D for it): "this is 11.0.x"
        assertTrue(
                blockscope
                        .get(0)
                        .matches("\\[blockscope\\] agent: needs Java 11 or newer, this is 11\\.[0-9.+]+;"
                                + " the agent is off, the application runs normally"),
                output);
        assertTrue(
                blockscope
                        .get(1)
                        .matches("\\[blockscope\\] attach: needs Java 11 or newer, this is 11\\.[0-9.+]+;"
                                + " nothing was attached; run the launcher with the java of a JDK 11 or newer"),
                output);
        List<String> fromJar = lines.stream()
                .filter(l -> l.contains("source: file:" + jar) || l.contains("source: jar:file:" + jar))
                .map(l -> l.replaceAll(".*\\] (\\S+) source:.*", "$1"))
                .sorted()
                .toList();
        assertEquals(
                List.of(
                        "io.blockscope.agent.entry.AgentEntry",
                        "io.blockscope.agent.entry.JavaVersion",
                        "io.blockscope.agent.entry.LauncherEntry"),
                fromJar,
                output);
    }

    /** {@code java -jar blockscope-agent.jar} with no command: the entry hands over, the launcher prints its usage. */
    @ParameterizedTest(name = "JDK {0}")
    @ValueSource(ints = {11, 17, 25})
    void launcherEntryHandsOverOnEveryJdk(int jdk) throws Exception {
        Path java = jdk == 17 ? Path.of(ChildJvm.java17()) : TestJdks.require(jdk);
        Command.Result launcher = AgentLauncher.run(java);
        String output = launcher.output();
        assertTrue(output.contains("usage: java -jar blockscope-agent.jar attach <pid>"), output);
        assertTrue(output.contains("blockscope attach failed with status 2"), output);
        assertEquals(1, launcher.exitCode(), output);
    }
}
