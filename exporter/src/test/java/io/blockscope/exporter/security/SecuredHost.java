package io.blockscope.exporter.security;

import io.blockscope.exporter.Exporter;
import io.blockscope.exporter.ExporterConfig;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Main of the child JVMs the security tests attack: starts the exporter on 127.0.0.1:0 with the
 * {@code key=value} options of its arguments, prints {@code exporter port P serving B}, then every
 * system property as {@code property K=V} (so the parent can look for secrets in them) and
 * {@code ready}, and waits to be killed (at most {@code host.lifetime-s}, default 120, seconds).
 */
public final class SecuredHost {

    private SecuredHost() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new HashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            options.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        long lifetimeMs = 1000 * Long.parseLong(options.getOrDefault("host.lifetime-s", "120"));
        options.remove("host.lifetime-s");
        Exporter exporter = Exporter.start(ExporterConfig.parse("127.0.0.1:0", options));
        System.out.println("exporter port " + exporter.port() + " serving " + exporter.isServing());
        for (Map.Entry<Object, Object> e : new TreeMap<>(System.getProperties()).entrySet()) {
            System.out.println("property " + e.getKey() + "=" + e.getValue());
        }
        System.out.println("ready");
        System.out.flush();
        Thread.sleep(lifetimeMs);
        exporter.close();
    }
}
