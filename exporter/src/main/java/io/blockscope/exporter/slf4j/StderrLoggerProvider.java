package io.blockscope.exporter.slf4j;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The SLF4J binding for the exporter's own copy of SLF4J, which only Jetty uses: warnings and
 * errors go to the exporter's {@code Log} (once per message), everything else is dropped.
 *
 * <p>Without a binding SLF4J prints a "no providers" notice to the host's stderr; with the host's
 * binding Jetty's lines would land in the host's logs. Registered through {@code
 * META-INF/services/org.slf4j.spi.SLF4JServiceProvider}, which the agent's shading relocates along
 * with {@code org.slf4j}.
 */
public final class StderrLoggerProvider implements SLF4JServiceProvider {

    private final Map<String, Logger> loggers = new ConcurrentHashMap<>();
    private final ILoggerFactory factory = name -> loggers.computeIfAbsent(name, StderrLogger::new);
    private final IMarkerFactory markers = new BasicMarkerFactory();
    private final MDCAdapter mdc = new NOPMDCAdapter();

    @Override
    public ILoggerFactory getLoggerFactory() {
        return factory;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return markers;
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return mdc;
    }

    @Override
    public String getRequestedApiVersion() {
        return "2.0.99";
    }

    @Override
    public void initialize() {
        // nothing to set up
    }
}
