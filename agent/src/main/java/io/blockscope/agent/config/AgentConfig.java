package io.blockscope.agent.config;

import java.time.Duration;
import java.util.Map;

/**
 * The agent's settings after merging defaults, the config file, the agent argument and the
 * environment (later wins). Exporter-owned keys pass through untouched to
 * {@code ExporterConfig.parse(hostPort, exporterOptions)}.
 *
 * @param hostPort        {@code [host:]port} of the metrics endpoint, as the exporter takes it
 * @param profile         {@code auto}, a built-in profile name, or a JSON file path
 * @param leakSample      1 in N block checkouts is tracked for hold time and leaks; 0 = none
 * @param leakAge         a tracked checkout held longer than this is a leak
 * @param copySample      1 in N copies is attributed to a call site (and a JFR event); 0 = none
 * @param copyJfr         whether sampled copies commit a {@code blockscope.CopyToHeap} JFR event
 * @param sites           site label values kept per metric before the rest go to {@code other}
 * @param tracked         tracked checkouts held at once (slots of the tracking table)
 */
public record AgentConfig(
        String hostPort,
        String profile,
        int leakSample,
        Duration leakAge,
        int copySample,
        boolean copyJfr,
        int sites,
        int tracked,
        Map<String, String> exporterOptions) {

    public AgentConfig {
        exporterOptions = Map.copyOf(exporterOptions);
    }
}
