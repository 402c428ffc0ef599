package io.blockscope.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.agent.entry.EntryBytecodeTest;
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

    /** {@code java -jar blockscope-agent.jar} with no command: the entry hands over, the launcher prints its usage. */
    @ParameterizedTest(name = "JDK {0}")
    @ValueSource(ints = {11, 17, 25})
    void launcherEntryHandsOverOnEveryJdk(int jdk) throws Exception {
        Path java = jdk == 17 ? Path.of(ChildJvm.java17()) : TestJdks.require(jdk);
        Process p = new ProcessBuilder(
                        List.of(java.toString(), "-jar", ChildJvm.agentJar().toString()))
                .redirectErrorStream(true)
                .start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the launcher did not end");
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(output.contains("usage: java -jar blockscope-agent.jar attach <pid>"), output);
        assertTrue(output.contains("blockscope attach failed with status 2"), output);
        assertEquals(1, p.exitValue(), output);
    }
}
