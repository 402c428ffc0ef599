package io.blockscope.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChildProcessTest {

    /** Echoes each stdin line as "ok LINE" on stdout, says "ready port=42" on stderr, exits 3 at "exit". */
    public static final class Echo {
        public static void main(String[] args) throws Exception {
            System.out.println("started " + String.join(",", args) + " " + System.getenv("ECHO_VAR"));
            System.err.println("ready port=42");
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null; ) {
                if (line.equals("exit")) {
                    System.exit(3);
                }
                System.out.println("ok " + line);
            }
        }
    }

    @Test
    void talksToAChildJvmAndSeesItsExit(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("echo.log");
        try (ChildProcess echo = JavaCommand.onTestJvm()
                .option("-Xmx32m")
                .classPath(JavaCommand.testClassPath())
                .env("ECHO_VAR", "set")
                .main(Echo.class.getName(), "a", "b")
                .log(log)
                .start()) {
            assertEquals("started a,b set", echo.awaitLine(l -> l.startsWith("started"), Duration.ofSeconds(30)));
            assertEquals(
                    "42",
                    echo.awaitMatch(Pattern.compile("port=(\\d+)"), Duration.ofSeconds(30))
                            .group(1));
            int before = echo.out().size();
            echo.send("work 5");
            echo.awaitLine(ChildProcess.Stream.OUT, before, "ok work 5"::equals, Duration.ofSeconds(30));
            echo.send("exit");
            assertEquals(3, echo.awaitExit(Duration.ofSeconds(30)));
            assertEquals(List.of("started a,b set", "ok work 5"), echo.out());
            assertEquals(List.of("ready port=42"), echo.err());
            assertTrue(Files.readAllLines(log).containsAll(List.of("started a,b set", "ready port=42")));
            AssertionError ended = assertThrows(
                    AssertionError.class, () -> echo.awaitLine(l -> l.equals("never"), Duration.ofSeconds(30)));
            assertTrue(ended.getMessage().contains("ended (exit code 3)"), ended.getMessage());
            assertTrue(ended.getMessage().contains("ok work 5"), "the transcript: " + ended.getMessage());
        }
    }
}
