package io.blockscope.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.testsupport.Scrape;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host that brings its own (other versions of) ByteBuddy, Jetty and the Prometheus client runs
 * unchanged next to the agent, whose copies are relocated under io.blockscope.agent.shaded.
 */
class ShadingIT {

    @TempDir
    Path temp;

    @Test
    void hostWithItsOwnByteBuddyJettyAndPrometheusRunsUnchanged() throws Exception {
        List<String> libs = hostLibs();
        Path classes = compileHost(libs);
        String classPath = classes
                + File.pathSeparator
                + String.join(File.pathSeparator, libs)
                + File.pathSeparator
                + ChildJvm.classPath();
        try (ChildJvm child = ChildJvm.builder(ChildJvm.java17())
                .agent("127.0.0.1:0,profile=" + ZeroAllocationIT.fakeProfile())
                .classPath(classPath)
                .start("ShadingHost")) {
            String line = child.awaitOut(java.util.regex.Pattern.compile("^(host ok .*)"));
            // the host saw its own versions, and each library worked
            assertTrue(line.contains("bytebuddy=generated/byte-buddy-1.14.19.jar"), line + "\n" + child.transcript());
            assertTrue(line.contains("jetty=jetty-ok/12.0.16"), line);
            assertTrue(line.contains("prometheus=true/prometheus-metrics-core-1.3.1.jar"), line);

            Scrape scrape = Scrape.of(Integer.parseInt(line.replaceAll(".*port=", "")));
            assertEquals(5, scrape.value("blockscope_block_cache_gets_total", "tier", "l1", "result", "hit"));
            assertEquals(5, scrape.value("blockscope_block_cache_returns_total", "tier", "l1"));
            assertTrue(scrape.seriesCount("jvm_memory_used_bytes") > 0, scrape.text());
            child.send("exit");
            assertEquals(0, child.waitFor(), child.transcript());
            assertTrue(
                    child.err().stream().noneMatch(l -> l.contains("Exception") || l.contains("Error")),
                    child.transcript());
        }
    }

    private static List<String> hostLibs() throws IOException {
        String dir = System.getProperty("blockscope.host.libs");
        if (dir == null || !Files.isDirectory(Path.of(dir))) {
            throw new IllegalStateException("host libraries not found at " + dir + ": run with 'mvn verify' (the"
                    + " dependency plugin copies them in pre-integration-test)");
        }
        try (Stream<Path> jars = Files.list(Path.of(dir))) {
            return jars.filter(p -> p.toString().endsWith(".jar"))
                    .map(Path::toString)
                    .sorted()
                    .toList();
        }
    }

    private Path compileHost(List<String> libs) throws Exception {
        Path source = temp.resolve("ShadingHost.java");
        try (var in = ShadingIT.class.getResourceAsStream("/shading-host/ShadingHost.java")) {
            Files.write(source, in.readAllBytes());
        }
        Path out = Files.createDirectories(temp.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new ArrayList<>(List.of(
                "-d",
                out.toString(),
                "-cp",
                String.join(File.pathSeparator, libs) + File.pathSeparator + ChildJvm.classPath(),
                source.toString()));
        java.io.ByteArrayOutputStream errors = new java.io.ByteArrayOutputStream();
        int status = javac.run(null, errors, errors, args.toArray(String[]::new));
        if (status != 0) {
            throw new UncheckedIOException(new IOException("host did not compile:\n" + errors));
        }
        return out;
    }
}
