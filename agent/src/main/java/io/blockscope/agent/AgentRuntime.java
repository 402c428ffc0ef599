package io.blockscope.agent;

import io.blockscope.agent.config.AgentConfig;
import io.blockscope.agent.config.AgentOptions;
import io.blockscope.agent.profile.Profile;
import io.blockscope.agent.profile.Profiles;
import io.blockscope.exporter.ExporterConfig;
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

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            if (!(o instanceof Setup)) {
                return false;
            }
            Setup that = (Setup) o;
            return java.util.Objects.equals(config, that.config)
                    && java.util.Objects.equals(exporterConfig, that.exporterConfig)
                    && java.util.Objects.equals(profile, that.profile);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(config, exporterConfig, profile);
        }

        @Override
        public String toString() {
            return "Setup[config=" + config + ", exporterConfig=" + exporterConfig + ", profile=" + profile + "]";
        }
    }

    /** Throws {@link IllegalArgumentException} with a one-line message on bad options or profile. */
    static Setup prepare(String argument, Instrumentation instrumentation) {
        AgentConfig config = AgentOptions.parse(argument, System.getenv(), ExporterConfig.optionNames());
        ExporterConfig exporterConfig = ExporterConfig.parse(config.hostPort(), config.exporterOptions());
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
