package io.blockscope.agent.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarInputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.FieldVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
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
    void licencesOfLibrariesThatShareAFileNameAreBothKept() throws Exception {
        try (JarFile jar = new JarFile(ChildJvm.agentJar().toFile())) {
            String licence = new String(
                    jar.getInputStream(jar.getEntry("META-INF/LICENSE.txt")).readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(licence.contains("QOS.ch"), "slf4j-api's licence: " + licence);
            assertTrue(licence.contains("Atlassian"), "commonmark-java's licence: " + licence);
            assertEquals(licence.indexOf("Atlassian"), licence.lastIndexOf("Atlassian"), "one copy: " + licence);
        }
    }

    /**
     * The production jar carries no benchmark hook: no probe switch, no diagnostics package, no
     * extension for ServiceLoader to find, and no pause in its bridge (read from the nested bootstrap
     * jar the JVM loads it from). The diagnostics jar has them all, so a build that mixes the two up
     * fails here either way.
     */
    @Test
    void onlyTheDiagnosticsJarHasTheProbeSwitchAndTheBridgeHasNoPause() throws Exception {
        List<String> production = names(ChildJvm.agentJar());
        List<String> diagnostics = names(ChildJvm.diagnosticsJar());
        for (String hook : List.of(
                "io/blockscope/agent/diagnostics/ProbeSwitch.class",
                "io/blockscope/agent/diagnostics/DiagnosticsExtension.class",
                "META-INF/services/io.blockscope.agent.instrument.ProbeExtension",
                "META-INF/blockscope/blockscope-diagnostics-bootstrap.jar")) {
            assertTrue(diagnostics.contains(hook), "the diagnostics jar lacks " + hook);
            assertFalse(production.contains(hook), "the production jar has " + hook);
        }
        assertTrue(production.stream().noneMatch(n -> n.contains("ProbeSwitch") || n.contains("/diagnostics/")));

        Set<String> members = bridgeMembers(ChildJvm.agentJar());
        assertTrue(members.contains("method blockHit"), "read the bridge: " + members);
        assertEquals(
                Set.of(),
                members.stream()
                        .filter(m -> m.toLowerCase(Locale.ROOT).contains("pause"))
                        .collect(Collectors.toSet()),
                "the production bridge's pause members");
    }

    private static List<String> names(Path jarFile) throws Exception {
        List<String> names = new ArrayList<>();
        try (JarFile jar = new JarFile(jarFile.toFile())) {
            jar.stream().forEach(e -> names.add(e.getName()));
        }
        return names;
    }

    /** "field NAME" and "method NAME" of every class in the jar's nested bootstrap jar. */
    private static Set<String> bridgeMembers(Path jarFile) throws Exception {
        Set<String> members = new TreeSet<>();
        try (JarFile jar = new JarFile(jarFile.toFile());
                JarInputStream nested = new JarInputStream(
                        jar.getInputStream(jar.getEntry("META-INF/blockscope/blockscope-bootstrap.jar")))) {
            for (JarEntry entry; (entry = nested.getNextJarEntry()) != null; ) {
                if (!entry.getName().endsWith(".class")) {
                    continue;
                }
                new ClassReader(nested.readAllBytes())
                        .accept(
                                new ClassVisitor(Opcodes.ASM9) {
                                    @Override
                                    public FieldVisitor visitField(
                                            int access,
                                            String name,
                                            String descriptor,
                                            String signature,
                                            Object value) {
                                        members.add("field " + name);
                                        return null;
                                    }

                                    @Override
                                    public MethodVisitor visitMethod(
                                            int access,
                                            String name,
                                            String descriptor,
                                            String signature,
                                            String[] exceptions) {
                                        members.add("method " + name);
                                        return null;
                                    }
                                },
                                ClassReader.SKIP_CODE);
            }
        }
        return members;
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
