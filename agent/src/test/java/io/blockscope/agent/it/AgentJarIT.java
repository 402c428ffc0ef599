package io.blockscope.agent.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The packaged jar: what is (and is not) in it, and the versioned release copy with its checksum. */
class AgentJarIT {

    private static final String SHADED = "io/blockscope/agent/shaded/";

    @Test
    void versionedJarIsTheAgentJarAndItsSha256FileMatchesInSha256sumFormat() throws Exception {
        String version = System.getProperty("blockscope.version");
        assertNotNull(version, "run with 'mvn verify' (failsafe passes -Dblockscope.version)");
        Path jar = ChildJvm.agentJar();
        Path versioned = jar.resolveSibling("blockscope-agent-" + version + ".jar");
        Path checksum = versioned.resolveSibling(versioned.getFileName() + ".sha256");
        assertTrue(Files.isRegularFile(versioned), versioned + " was not packaged");
        assertArrayEquals(Files.readAllBytes(jar), Files.readAllBytes(versioned), "the release jar is the agent jar");

        String digest =
                HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(versioned)));
        // `sha256sum -c` reads "<hex>  <file name>" (two spaces: text mode), one line per file
        String line = Files.readString(checksum, StandardCharsets.US_ASCII).strip();
        assertEquals(digest + "  " + versioned.getFileName(), line);
    }

    @Test
    void everyClassIsTheAgentsOwnOrRelocatedAndEveryRelocationHasClasses() throws Exception {
        List<String> names = new ArrayList<>();
        try (JarFile jar = new JarFile(ChildJvm.agentJar().toFile())) {
            jar.stream().forEach(e -> names.add(e.getName()));
        }
        for (String name : names) {
            if (name.endsWith(".class")) {
                assertTrue(name.startsWith("io/blockscope/agent/"), "not relocated: " + name);
            }
        }
        // a relocation whose package is not in the jar only rewrites strings: each must move something
        for (String shaded : relocations()) {
            String prefix = shaded.replace('.', '/') + "/";
            assertTrue(names.stream().anyMatch(n -> n.startsWith(prefix)), "nothing relocated to " + shaded);
        }
        // profiles are read with jackson-jr: jackson-databind (1.5 MB compressed) must not come back
        assertTrue(names.stream().noneMatch(n -> n.startsWith(SHADED + "com/fasterxml/jackson/databind/")));
        assertTrue(names.stream().anyMatch(n -> n.startsWith(SHADED + "com/fasterxml/jackson/jr/")));
        assertTrue(names.stream().noneMatch(n -> n.startsWith("META-INF/native-image/")));
    }

    @Test
    void jarStaysUnderItsMeasuredSize() throws Exception {
        // 12.9 MB measured (docs/agent.md "What is in the jar"); the ceiling leaves room for the agent's
        // own growth, not for another library: adding one should be a decision that updates this line.
        long size = Files.size(ChildJvm.agentJar());
        assertTrue(size < 13_500_000L, "agent jar is " + size + " bytes: update docs/agent.md and this limit");
    }

    /** The shadedPattern of every relocation in agent/pom.xml (failsafe runs in the module's folder). */
    private static List<String> relocations() throws Exception {
        String pom = Files.readString(Path.of("pom.xml"));
        Matcher m = Pattern.compile("<shadedPattern>\\$\\{agent\\.shaded}\\.([^<]+)</shadedPattern>")
                .matcher(pom);
        List<String> out = new ArrayList<>();
        while (m.find()) {
            out.add("io.blockscope.agent.shaded." + m.group(1));
        }
        assertTrue(
                out.size() >= 5,
                "relocations not found in " + Path.of("pom.xml").toAbsolutePath());
        return out;
    }
}
