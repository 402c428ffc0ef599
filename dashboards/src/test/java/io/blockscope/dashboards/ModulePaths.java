package io.blockscope.dashboards;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the files under test live: set by the pom, with a fallback for runs from the module folder. */
final class ModulePaths {

    private ModulePaths() {}

    /** The {@code dashboards/} module folder. */
    static Path dashboards() {
        return fromProperty("blockscope.dashboards.dir", Path.of("").toAbsolutePath());
    }

    /** The repository's {@code docs/} folder. */
    static Path docs() {
        return fromProperty(
                "blockscope.docs.dir", dashboards().resolve("../docs").normalize());
    }

    static Path alerts() {
        return dashboards().resolve("alerts.yml");
    }

    static Path recordingRules() {
        return dashboards().resolve("recording-rules.yml");
    }

    static Path serverDashboard() {
        return dashboards().resolve("grafana/offheap-read-path.json");
    }

    static Path fleetDashboard() {
        return dashboards().resolve("grafana/fleet-overview.json");
    }

    private static Path fromProperty(String name, Path fallback) {
        String value = System.getProperty(name);
        Path path = value == null || value.isBlank()
                ? fallback
                : Path.of(value).toAbsolutePath().normalize();
        if (!Files.isDirectory(path)) {
            throw new IllegalStateException(name + " points at " + path
                    + ", which is not a folder; run the tests with Maven from the repository root");
        }
        return path;
    }
}
