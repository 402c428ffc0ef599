package io.blockscope.exporter.slf4j;

import io.blockscope.exporter.Log;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;

/** Passes WARN and ERROR to {@link Log#warnOnce}, keyed by logger and message pattern. */
final class StderrLogger extends LegacyAbstractLogger {

    private static final long serialVersionUID = 1L;

    StderrLogger(String name) {
        this.name = name;
    }

    @Override
    public boolean isTraceEnabled() {
        return false;
    }

    @Override
    public boolean isDebugEnabled() {
        return false;
    }

    @Override
    public boolean isInfoEnabled() {
        return false;
    }

    @Override
    public boolean isWarnEnabled() {
        return true;
    }

    @Override
    public boolean isErrorEnabled() {
        return true;
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(
            Level level, Marker marker, String pattern, Object[] args, Throwable throwable) {
        if (level != Level.WARN && level != Level.ERROR) {
            return;
        }
        String message = MessageFormatter.basicArrayFormat(pattern, args);
        String shortName = name.substring(name.lastIndexOf('.') + 1);
        Log.warnOnce("slf4j:" + name + ":" + pattern, "jetty " + shortName + ": " + message, throwable);
    }
}
