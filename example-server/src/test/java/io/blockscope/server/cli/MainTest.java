package io.blockscope.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.server.load.TableManifest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** The command line: every option documented, config files applied and checked, bad input explained. */
class MainTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream savedOut;
    private PrintStream savedErr;

    @BeforeEach
    void capture() {
        savedOut = System.out;
        savedErr = System.err;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restore() {
        System.setOut(savedOut);
        System.setErr(savedErr);
    }

    private String stdout() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String stderr() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(strings = {"load", "serve", "pe"})
    void helpDocumentsEveryOption(String command) {
        assertEquals(0, Main.execute(command, "--help"));
        String help = stdout();
        CommandLine sub = new CommandLine(new Main()).getSubcommands().get(command);
        for (OptionSpec option : sub.getCommandSpec().options()) {
            String name = option.longestName();
            assertTrue(
                    help.contains(name) || (option.negatable() && help.contains(name.replace("--", "--[no-]"))),
                    command + " --help does not mention " + name);
            assertTrue(
                    option.description().length > 0 && !option.description()[0].isBlank(),
                    option.longestName() + " of " + command + " has no description");
        }
        assertTrue(help.contains("--config"));
    }

    @Test
    void aConfigFileSetsDefaultsAndFlagsWin() throws Exception {
        Path config = dir.resolve("blockscope.properties");
        Files.writeString(
                config,
                "rows=50\ntable=fromconfig\nqualifiers=2\n# other commands' keys are ignored\npe.threads=2,4\n");
        assertEquals(0, Main.execute("load", "--config", config.toString(), "--data", dir.toString()), stderr());
        TableManifest manifest = TableManifest.read(dir.resolve("fromconfig"));
        assertEquals(50, manifest.spec().rows());
        assertEquals(2, manifest.spec().qualifiers());

        assertEquals(
                0,
                Main.execute(
                        "load", "--config=" + config, "--data", dir.toString(), "--rows", "70", "--table", "flags"));
        assertEquals(70, TableManifest.read(dir.resolve("flags")).spec().rows());
        assertEquals(2, TableManifest.read(dir.resolve("flags")).spec().qualifiers());
    }

    @Test
    void unknownConfigKeysAreErrorsThatNameTheKey() throws Exception {
        Path config = dir.resolve("typo.properties");
        Files.writeString(config, "rowz=50\n");
        assertEquals(2, Main.execute("load", "--config", config.toString(), "--data", dir.toString()));
        assertTrue(stderr().contains("'rowz' is not an option of load"), stderr());

        Files.writeString(config, "load.bogus=1\n");
        assertEquals(2, Main.execute("load", "--config", config.toString(), "--data", dir.toString()));
        assertTrue(stderr().contains("'load.bogus' is not an option of load"), stderr());

        assertEquals(
                2,
                Main.execute(
                        "load", "--config", dir.resolve("missing.properties").toString(), "--data", dir.toString()));
        assertTrue(stderr().contains("does not exist"), stderr());
    }

    @Test
    void badValuesSayWhatIsAccepted() throws Exception {
        assertEquals(2, Main.execute("serve", "--deploy", "offheap", "--rows", "10"));
        assertTrue(stderr().contains("use one of lru, cbc-offheap, cbc-onheap, cbc-file, meta-only"), stderr());
        assertEquals(2, Main.execute("serve", "--l2-size", "lots", "--rows", "10"));
        assertTrue(stderr().contains("'lots'"), stderr());
        assertEquals(2, Main.execute("load", "--data", dir.toString(), "--rows", "10", "--value-dist", "gauss"));
        assertTrue(stderr().contains("accepted: fixed, random, zipf"), stderr());
        assertEquals(2, Main.execute("serve"));
        assertTrue(stderr().contains("give --data DIR"), stderr());
        assertEquals(2, Main.execute("serve", "--data", dir.toString(), "--rows", "5"));
        assertTrue(stderr().contains("mutually exclusive"), stderr());
    }

    @Test
    void badPeSettingsAreRejectedBeforeAnythingRuns() {
        assertEquals(2, Main.execute("pe", "--workload", "nosuch", "--ops", "10"));
        assertTrue(
                stderr().contains("unknown workload 'nosuch'; accepted: multiget, scanRange, scan10pct, randomRead"),
                stderr());
        assertEquals(2, Main.execute("pe", "--duration", "5s", "--ops", "10"));
        assertTrue(stderr().contains("give exactly one of --duration"), stderr());
        assertEquals(
                2,
                Main.execute(
                        "pe",
                        "--workload",
                        "multiget",
                        "--filter",
                        "all",
                        "--threads",
                        "1",
                        "--rounds",
                        "1",
                        "--ops",
                        "10"));
        assertTrue(stderr().contains("--filter applies to the scan workloads"), stderr());
        assertEquals(2, Main.execute("pe", "--threads", "0", "--ops", "10"));
        assertTrue(stderr().contains("--threads must list counts of 1..1024"), stderr());
        assertEquals(2, Main.execute("pe", "--threads", "8", "--rounds", "4", "--ops", "10"));
        assertTrue(stderr().contains("--ops 10 is too small"), stderr());
        assertEquals(2, Main.execute("pe", "--target", "http://127.0.0.1:1", "--deploy", "lru", "--ops", "100"));
        assertTrue(stderr().contains("--deploy applies to in-process runs"), stderr());
    }

    @Test
    void loadingTheSameTableTwiceIsRefused() {
        assertEquals(0, Main.execute("load", "--data", dir.toString(), "--rows", "20"));
        assertEquals(1, Main.execute("load", "--data", dir.toString(), "--rows", "20"));
        assertTrue(stderr().contains("already exists"), stderr());
    }
}
