package io.blockscope.agent.diagnostics;

import io.blockscope.agent.bootstrap.Checkouts;
import io.blockscope.agent.bootstrap.Counter;
import io.blockscope.agent.diagnostics.bootstrap.RecordingGate;
import io.blockscope.agent.instrument.Instrumenter;
import io.blockscope.agent.instrument.TargetFilter;
import io.blockscope.agent.profile.Profile;
import io.blockscope.exporter.Log;
import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import javax.management.JMException;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;

/**
 * Removes and reinstalls the probes at run time (see {@link ProbeSwitchMBean}): a change resets the
 * current ByteBuddy transformer (the classes it changed are retransformed back) and installs a new
 * one for the chosen probes only, both through the instrumentation the first install used, so the
 * start's deferred transformer detaches and attaches its delegate as it did then. Pausing closes the
 * {@link RecordingGate} the diagnostics build's advice tests. Not a hot path: switches are serialised.
 */
public final class ProbeSwitch implements ProbeSwitchMBean {

    public static final String OBJECT_NAME = "io.blockscope:type=ProbeSwitch";

    private static final String ALL = "all";
    private static final String NONE = "none";

    private final Profile profile;
    private final List<String> names;
    private final Instrumenter instrumenter;
    private final Instrumentation instrumentation;
    private final TargetFilter candidates;
    /** The transformer of the installed probes; null when none are. Guarded by this. */
    private ResettableClassFileTransformer current;
    /** Indices of the installed probes; never modified once published. */
    private volatile BitSet installed;

    private volatile long switches;
    /** The options' checkout sample, which leak tracking goes back to when turned on. */
    private final int checkoutSample;

    /**
     * @param instrumenter    the instrumenter that installed {@code current}
     * @param instrumentation the instrumentation the install used
     * @param candidates      the loaded classes worth retransforming
     * @param current         the transformer installing every probe of the profile
     */
    public ProbeSwitch(
            Profile profile,
            Instrumenter instrumenter,
            Instrumentation instrumentation,
            TargetFilter candidates,
            ResettableClassFileTransformer current) {
        this.profile = profile;
        this.names = new ArrayList<>();
        profile.probes().forEach(p -> names.add(p.name()));
        this.instrumenter = instrumenter;
        this.instrumentation = instrumentation;
        this.candidates = candidates;
        this.current = current;
        BitSet all = new BitSet();
        all.set(0, names.size());
        this.installed = all;
        this.checkoutSample = Checkouts.checkoutSample();
    }

    /** Registers this switch as the platform MBean {@value #OBJECT_NAME}. */
    public ObjectName register() throws JMException {
        ObjectName name = new ObjectName(OBJECT_NAME);
        ManagementFactory.getPlatformMBeanServer().registerMBean(new StandardMBean(this, ProbeSwitchMBean.class), name);
        return name;
    }

    @Override
    public String getInstalled() {
        return spec(installed);
    }

    @Override
    public long getSwitches() {
        return switches;
    }

    @Override
    public String getProbes() {
        return String.join(",", names);
    }

    @Override
    public boolean isPaused() {
        return !RecordingGate.open;
    }

    @Override
    public synchronized void setPaused(boolean paused) {
        // like a scrape: fold the rows of ended threads, so a benchmark's thread churn between
        // scrapes does not fill the counter table and send new threads to the shared row
        Counter.retireDeadThreads();
        RecordingGate.open = !paused;
    }

    @Override
    public boolean isLeakTracking() {
        return Checkouts.checkoutSample() > 0;
    }

    @Override
    public synchronized void setLeakTracking(boolean on) {
        if (on && checkoutSample == 0) {
            throw new IllegalStateException(
                    "leak tracking is off in the agent's options (leak.sample=0): there is none to turn on");
        }
        Checkouts.checkoutSample(on ? checkoutSample : 0);
    }

    @Override
    public synchronized void setInstalled(String spec) {
        Counter.retireDeadThreads(); // as in setPaused
        BitSet wanted = parse(spec);
        BitSet before = installed;
        if (wanted.equals(before)) {
            return;
        }
        long began = System.nanoTime();
        long retransformed = instrumenter.retransformed();
        long failures = instrumenter.retransformFailures();
        try {
            ResettableClassFileTransformer old = current;
            if (old != null) {
                // from here on the old transformer is gone, whatever happens to its removal
                current = null;
                installed = new BitSet();
                if (!instrumenter.uninstall(old, instrumentation, candidates)) {
                    throw new IllegalStateException("the transformer of the installed probes (" + spec(before)
                            + ") was no longer registered with the agent, so nothing was removed");
                }
            }
            if (!wanted.isEmpty()) {
                current = instrumenter.install(instrumentation, candidates, wanted::get);
                installed = wanted;
            }
        } catch (RuntimeException | LinkageError e) {
            throw failed(
                    spec(wanted),
                    before,
                    e.getClass().getName() + ": " + e.getMessage() + "; installed now: " + getInstalled(),
                    e);
        } finally {
            if (!installed.equals(before)) {
                switches++;
            }
        }
        long failed = instrumenter.retransformFailures() - failures;
        if (failed > 0) {
            throw failed(
                    spec(wanted),
                    before,
                    failed + " loaded class(es) could not be retransformed (logged as 'could not retransform')"
                            + " and keep their previous probes",
                    null);
        }
        Log.info("probe switch: installed " + getInstalled() + " (was " + spec(before) + "), "
                + (instrumenter.retransformed() - retransformed) + " loaded class(es) retransformed in "
                + (System.nanoTime() - began) / 1_000_000 + " ms; switch " + switches);
    }

    /** Logs the failure once and makes the exception the caller sees; the host keeps running. */
    private IllegalStateException failed(String wanted, BitSet before, String reason, Throwable cause) {
        String message = "probe switch from " + spec(before) + " to " + wanted + " failed: " + reason;
        Log.warnOnce("probe-switch:" + message, message, cause);
        return new IllegalStateException(message, cause);
    }

    /** The probes {@code spec} names; an {@link IllegalArgumentException} naming what it does not know. */
    BitSet parse(String spec) {
        BitSet wanted = new BitSet();
        String text = spec == null ? "" : spec.trim();
        if (text.toLowerCase(Locale.ROOT).equals(ALL)) {
            wanted.set(0, names.size());
            return wanted;
        }
        if (text.toLowerCase(Locale.ROOT).equals(NONE)) {
            return wanted;
        }
        List<String> unknown = new ArrayList<>();
        boolean any = false;
        for (String part : text.split(",", -1)) {
            String name = part.trim();
            if (name.isEmpty()) {
                continue;
            }
            any = true;
            int index = names.indexOf(name);
            if (index < 0) {
                unknown.add(name);
            } else {
                wanted.set(index);
            }
        }
        if (!unknown.isEmpty() || !any) {
            throw new IllegalArgumentException(
                    (any ? "unknown probe(s) " + String.join(", ", unknown) : "no probes named in '" + spec + "'")
                            + "; give all, none, or a comma-separated list of profile " + profile.name() + "'s probes: "
                            + String.join(", ", names));
        }
        return wanted;
    }

    /** {@code all}, {@code none}, or the names in profile order. */
    private String spec(BitSet probes) {
        if (probes.isEmpty()) {
            return NONE;
        }
        if (probes.cardinality() == names.size()) {
            return ALL;
        }
        List<String> out = new ArrayList<>();
        probes.stream().forEach(i -> out.add(names.get(i)));
        return String.join(",", out);
    }
}
