package io.blockscope.agent;

import io.blockscope.agent.config.AgentConfig;
import io.blockscope.agent.config.AgentOptions;
import io.blockscope.agent.profile.Profile;
import io.blockscope.agent.profile.Profiles;
import io.blockscope.exporter.ExporterConfig;
import io.blockscope.exporter.UnusableFileException;
import java.lang.instrument.Instrumentation;
import java.util.Optional;

/**
 * The first half of the startup: options and profile are checked before anything starts, so bad
 * input starts nothing. Must not reference the bridge classes, which are not loadable yet.
 */
final class AgentRuntime {

    private AgentRuntime() {}

    /** What {@link #prepare} checked. */
    static final class Setup {
        private final AgentConfig config;
        private final ExporterConfig exporterConfig;
        private final Optional<Profile> profile;

        Setup(AgentConfig config, ExporterConfig exporterConfig, Optional<Profile> profile) {
            this.config = config;
            this.exporterConfig = exporterConfig;
            this.profile = profile;
        }

        public AgentConfig config() {
            return config;
        }

        public ExporterConfig exporterConfig() {
            return exporterConfig;
        }

        public Optional<Profile> profile() {
            return profile;
        }
    }

    /** Throws {@link IllegalArgumentException} with a one-line message on bad options or profile. */
    static Setup prepare(String argument, Instrumentation instrumentation) {
        AgentConfig config = AgentOptions.parse(argument, System.getenv(), ExporterConfig.optionNames());
        ExporterConfig exporterConfig;
        try {
            exporterConfig = ExporterConfig.parse(config.hostPort(), config.exporterOptions());
        } catch (UnusableFileException e) {
            // The options are right but a file they name is not: probes and metrics go on, nothing
            // is served (never without the TLS or password asked for), and the line says what to fix.
            AgentLog.warn("endpoint off: " + e.getMessage()
                    + "; the probes run and metrics are collected, but nothing is served until the agent"
                    + " starts with usable files (restart the JVM, or attach again to a new JVM)");
            exporterConfig = null;
        }
        Optional<Profile> profile = Profiles.resolve(config.profile(), ClassLoader.getSystemClassLoader());
        if (!instrumentation.isRetransformClassesSupported()) {
            throw new IllegalStateException("this JVM cannot retransform classes");
        }
        return new Setup(config, exporterConfig, profile);
    }

    static String version() {
        String version = AgentRuntime.class.getPackage().getImplementationVersion();
        return version == null ? "dev" : version;
    }
}
