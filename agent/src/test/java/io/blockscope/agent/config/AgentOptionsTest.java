package io.blockscope.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.blockscope.exporter.ExporterConfig;
import io.blockscope.exporter.gc.GcMonitoring;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentOptionsTest {

    private static final Set<String> EXPORTER = Set.of("threads", "tls.cert");

    @TempDir
    Path temp;

    private static AgentConfig parse(String argument) {
        return AgentOptions.parse(argument, Map.of(), EXPORTER);
    }

    private static String error(String argument, Map<String, String> env) {
        return assertThrows(IllegalArgumentException.class, () -> AgentOptions.parse(argument, env, EXPORTER))
                .getMessage();
    }

    private static String error(String argument) {
        return error(argument, Map.of());
    }

    @Test
    void portAloneGivesTheDefaults() {
        AgentConfig config = parse("9404");
        assertEquals("9404", config.hostPort());
        assertEquals("auto", config.profile());
        assertEquals(1024, config.leakSample());
        assertEquals(10, config.leakRate(), "ten tracked checkouts a second at most");
        assertEquals(Duration.ofSeconds(60), config.leakAge());
        assertEquals(0, config.copySample(), "by bytes by default");
        assertEquals(1L << 20, config.copySampleBytes(), "one sample per MiB copied");
        assertTrue(config.copyJfr());
        assertEquals(20, config.sites());
        assertEquals(4096, config.tracked());
        assertEquals(50, config.tables());
        assertEquals(50, config.users());
        assertTrue(config.exporterOptions().isEmpty());
    }

    @Test
    void tableAndUserCapsAreSetAndBounded() {
        AgentConfig config = parse("9404,tables=200,users=0");
        assertEquals(200, config.tables());
        assertEquals(0, config.users(), "every user under other");
        assertTrue(error("9404,tables=1001").contains("tables"), error("9404,tables=1001"));
    }

    /**
     * The probe switch of overhead measurements is not in the production agent: probe.switch from any
     * place is a one-line error that says where the switch is, and no listed option.
     */
    @Test
    void probeSwitchIsRejectedFromEveryPlaceWithWhereTheSwitchIs() throws Exception {
        String expected = "probe.switch is not an option of the agent: the probe switch of overhead measurements is"
                + " only in the diagnostics jar, blockscope-agent-diagnostics.jar, which registers it without an"
                + " option; drop probe.switch (docs/benchmarks.md)";
        assertEquals(expected, error("127.0.0.1:0,probe.switch=true"));
        assertEquals(expected, error("0,probe.switch=false"));
        assertEquals(expected, error("0", Map.of("BLOCKSCOPE_PROBE_SWITCH", "true")));
        Path file = Files.writeString(temp.resolve("switch.properties"), "probe.switch=true\n");
        assertEquals(expected, error("0,config=" + file));
        assertFalse(AgentOptions.agentKeys().contains("probe.switch"), "not listed by --help");
        assertFalse(error("0,probe.swtich=true").contains("probe.switch"), "an unknown key's error does not offer it");
    }

    /** The builder's defaults are the options' defaults, and its ranges are checked as the options' are. */
    @Test
    void builderGivesTheDefaultsOfAPortAloneAndChecksRanges() {
        assertEquals(parse("9404"), AgentConfig.builder().hostPort("9404").build());
        AgentConfig built = AgentConfig.builder()
                .hostPort("127.0.0.1:0")
                .leakSample(1)
                .leakRate(0)
                .leakAge(Duration.ofSeconds(2))
                .copySample(16)
                .sites(5)
                .exporterOption("threads", "2")
                .build();
        assertEquals(
                parse("127.0.0.1:0,leak.sample=1,leak.rate=0,leak.age=2s,copy.sample=16,sites=5,threads=2"), built);
        assertEquals(0, built.copySampleBytes(), "a count replaces sampling by bytes");
        assertEquals(
                "tracked 8: expected 16..65536",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> AgentConfig.builder()
                                        .hostPort("0")
                                        .tracked(8)
                                        .build())
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> AgentConfig.builder().build(), "no hostPort");
        assertThrows(
                IllegalArgumentException.class,
                () -> AgentConfig.builder().hostPort("0").leakAge(Duration.ZERO).build());
    }

    @Test
    void hostPortThenKeyValuesAndExporterKeysPassThrough() {
        AgentConfig config = parse(
                "127.0.0.1:0, leak.sample=1,leak.age=500ms,copy.sample=0,copy.jfr=false,threads=2,profile=hbase2");
        assertEquals("127.0.0.1:0", config.hostPort());
        assertEquals(1, config.leakSample());
        assertEquals(Duration.ofMillis(500), config.leakAge());
        assertEquals(0, config.copySample());
        assertFalse(config.copyJfr());
        assertEquals("hbase2", config.profile());
        assertEquals(Map.of("threads", "2"), config.exporterOptions());
    }

    /** The switches for a JVM that another agent already exports: from the argument, a file or the environment. */
    @Test
    void jvmMetricsAndGcSourceReachTheExporterFromEveryPlace() throws Exception {
        Set<String> exporterKeys = ExporterConfig.optionNames();
        AgentConfig fromArgument = AgentOptions.parse("0,jvm.metrics=off,gc.source=mxbean", Map.of(), exporterKeys);
        ExporterConfig exporter = ExporterConfig.parse(fromArgument.hostPort(), fromArgument.exporterOptions());
        assertFalse(exporter.jvmMetrics());
        assertEquals(GcMonitoring.Source.MXBEAN, exporter.gcSource());

        Path file = Files.writeString(temp.resolve("agent.properties"), "gc.source=off\njvm.metrics=off\n");
        AgentConfig fromFile =
                AgentOptions.parse("0,config=" + file, Map.of("BLOCKSCOPE_GC_SOURCE", "jfr"), exporterKeys);
        ExporterConfig merged = ExporterConfig.parse(fromFile.hostPort(), fromFile.exporterOptions());
        assertFalse(merged.jvmMetrics(), "from the file");
        assertEquals(GcMonitoring.Source.JFR, merged.gcSource(), "the environment wins over the file");

        String typo = assertThrows(
                        IllegalArgumentException.class,
                        () -> AgentOptions.parse("0,jvm.metric=off", Map.of(), exporterKeys))
                .getMessage();
        assertTrue(typo.startsWith("unknown option 'jvm.metric'; accepted: host, port,"), typo);
        assertTrue(typo.contains("gc.source") && typo.contains("jvm.metrics"), typo);
        AgentConfig bad = AgentOptions.parse("0,gc.source=jmx", Map.of(), exporterKeys);
        String value = assertThrows(
                        IllegalArgumentException.class,
                        () -> ExporterConfig.parse(bad.hostPort(), bad.exporterOptions()))
                .getMessage();
        assertTrue(value.startsWith("bad gc.source='jmx': give jfr"), value);
    }

    @Test
    void ipv6HostKeepsItsBrackets() {
        assertEquals("[::1]:9404", parse("[::1]:9404").hostPort());
    }

    @Test
    void durationsTakeUnits() {
        assertEquals(Duration.ofMinutes(5), parse("1,leak.age=5m").leakAge());
        assertEquals(Duration.ofHours(1), parse("1,leak.age=1h").leakAge());
        assertEquals(Duration.ofSeconds(30), parse("1,leak.age=30").leakAge());
        assertEquals(Duration.ofMillis(1500), parse("1,leak.age=1.5s").leakAge());
    }

    @Test
    void everyBadInputIsOneLineNamingTheOptionAndWhatIsAccepted() {
        assertTrue(error("9404,bogus=1").startsWith("unknown option 'bogus'; accepted: host, port, config, profile,"));
        assertTrue(error("9404,bogus=1").endsWith("; exporter: threads, tls.cert"));
        assertEquals(
                "malformed option 'leak.sample': expected key=value (only the first option may be a bare [host:]port)",
                error("9404,leak.sample"));
        assertEquals("option 'sites' is given twice", error("9404,sites=3,sites=4"));
        assertTrue(error("9404,,sites=3").startsWith("empty option at position 2"));
        assertEquals("malformed port 'abc': expected 0..65535 (0 picks a free port)", error("abc"));
        assertEquals("malformed port '70000': expected 0..65535 (0 picks a free port)", error("localhost:70000"));
        assertEquals("malformed [host:]port ':9404': the host is empty", error(":9404"));
        assertTrue(error("").startsWith("no port: give [host:]port first"));
        assertTrue(error("1,leak.sample=x").startsWith("malformed leak.sample 'x': expected an integer in 0.."));
        assertTrue(error("1,leak.rate=-1").startsWith("malformed leak.rate '-1': expected an integer in 0..1000000"));
        assertEquals(0, parse("1,leak.rate=0").leakRate(), "0 lifts the limit");
        assertTrue(error("1,sites=0").startsWith("malformed sites '0': expected an integer in 1..100"));
        assertTrue(error("1,tracked=100000000")
                .startsWith("malformed tracked '100000000': expected an integer in 16..65536"));
        assertEquals("malformed copy.jfr 'yes': expected true or false", error("1,copy.jfr=yes"));
        assertTrue(error("1,copy.sample=1XB").startsWith("malformed copy.sample '1XB': N attributes 1 in N"));
        assertTrue(error("1,copy.sample=1XB").contains("a size such as 1MiB or 256KiB"));
        assertTrue(error("1,copy.sample=1XB")
                .endsWith("(bad size '1XB': unknown unit 'xb'; use bytes or a whole"
                        + " number with k, m, g or t (or KiB, MiB...), e.g. 64m)"));
        assertTrue(error("1,copy.sample=99999999999").startsWith("malformed copy.sample '99999999999': expected an"));
        assertTrue(error("1,copy.sample=-1").startsWith("malformed copy.sample '-1': expected an integer in 0.."));
        assertTrue(error("1,leak.age=-5s").startsWith("malformed leak.age '-5s': expected a positive duration"));
        assertTrue(error("1,copy.sample=0KiB").startsWith("malformed copy.sample '0KiB': N attributes 1 in N"));
        assertEquals(
                "malformed leak.age '0s': expected a positive duration such as 500ms, 30s, 5m or 1h",
                error("1,leak.age=0s"));
        assertTrue(error("1,config=/no/such/file.properties")
                .startsWith("config file '/no/such/file.properties' cannot be read"));
    }

    @Test
    void configFileThenArgumentThenEnvironment() throws Exception {
        Path file = temp.resolve("agent.properties");
        Files.writeString(file, "port=9500\nleak.sample=7\ncopy.sample=9\nsites=5\nthreads=3\n");
        Map<String, String> env = Map.of("BLOCKSCOPE_SITES", "6", "BLOCKSCOPE_UNRELATED", "x");
        AgentConfig config = AgentOptions.parse("config=" + file + ",copy.sample=11,sites=2", env, EXPORTER);
        assertEquals("9500", config.hostPort()); // file only
        assertEquals(7, config.leakSample()); // file only
        assertEquals(11, config.copySample()); // argument over file
        assertEquals(0, config.copySampleBytes(), "a count: 1 in N, not by bytes");
        AgentConfig bytes = AgentOptions.parse("1,copy.sample=256KiB", env, EXPORTER);
        assertEquals(0, bytes.copySample());
        assertEquals(256 * 1024, bytes.copySampleBytes());
        assertEquals(7, AgentOptions.parse("1,copy.sample=7B", env, EXPORTER).copySampleBytes());
        assertEquals(6, config.sites()); // environment over argument
        assertEquals(Map.of("threads", "3"), config.exporterOptions());
    }

    @Test
    void environmentAloneCanGiveThePort() {
        assertEquals(
                "127.0.0.1:9600",
                AgentOptions.parse(null, Map.of("BLOCKSCOPE_PORT", "9600", "BLOCKSCOPE_HOST", "127.0.0.1"), EXPORTER)
                        .hostPort());
        assertEquals("BLOCKSCOPE_LEAK_SAMPLE", AgentOptions.environmentName("leak.sample"));
        assertEquals("BLOCKSCOPE_TLS_CERT", AgentOptions.environmentName("tls.cert"));
    }

    @Test
    void configFileErrorsNameTheFile() throws Exception {
        Path file = temp.resolve("bad.properties");
        Files.writeString(file, "port=1\nleak.smaple=3\n");
        assertTrue(error("config=" + file)
                .startsWith("unknown key in config file " + file + ": 'leak.smaple'; accepted:"));
        Files.writeString(file, "port=1\nconfig=/other\n");
        assertEquals(
                "config file " + file + " sets config=; a config file cannot include another", error("config=" + file));
    }
}
