package io.blockscope.agent.instrument;

import io.blockscope.exporter.Log;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The agent's one registered class file transformer, there from {@code premain} on, in front of
 * ByteBuddy's, which the agent's start thread builds later:
 *
 * <ul>
 *   <li>a class the {@link TargetFilter} rules out (nearly all of them) never reaches ByteBuddy;
 *   <li>a class that may be a probe target and loads before ByteBuddy's transformer is there waits
 *       for it (up to {@link #HOLD_SECONDS}), so no target runs uninstrumented because the agent
 *       started in the background. Anything else the host does never waits.
 * </ul>
 *
 * <p>ByteBuddy installs through {@link #instrumentation}, so its transformer becomes this one's
 * delegate rather than a second registration: a class the JVM was already handing to the
 * registered transformers when ByteBuddy's arrived would otherwise pass it by, and could finish
 * loading after ByteBuddy's scan of loaded classes, uninstrumented for good.
 */
public final class DeferredTransformer implements ClassFileTransformer {

    /** How long a probe target's load waits for the agent's start; it takes about a second. */
    static final long HOLD_SECONDS = 30;

    private final TargetFilter filter;
    private final CountDownLatch settled = new CountDownLatch(1);
    private volatile ClassFileTransformer delegate;
    /** Classes held until ByteBuddy's transformer was there, and the time their loads waited. */
    private final AtomicInteger heldClasses = new AtomicInteger();

    private final AtomicLong heldNanos = new AtomicLong();
    /** The thread building ByteBuddy's transformer: a target it loads itself must not wait for it. */
    private volatile Thread starter;
    /** Set when a possible target loaded without ByteBuddy's transformer (not held, or held too long). */
    private volatile boolean targetLoadedEarly;

    DeferredTransformer(TargetFilter filter) {
        this.filter = filter;
    }

    /** Registers a transformer for {@code filter}'s targets (retransform-capable). */
    public static DeferredTransformer register(Instrumentation instrumentation, TargetFilter filter) {
        DeferredTransformer transformer = new DeferredTransformer(filter);
        instrumentation.addTransformer(transformer, true);
        return transformer;
    }

    /** Which classes may be probe targets: the loaded ones ByteBuddy's start retransforms, too. */
    public TargetFilter filter() {
        return filter;
    }

    /** The thread that will install ByteBuddy's transformer (call before starting it). */
    public void startedBy(Thread thread) {
        this.starter = thread;
    }

    /**
     * {@code instrumentation} for ByteBuddy's installation: adding a transformer makes it this
     * one's delegate (and releases held classes); everything else goes to the JVM's.
     */
    public Instrumentation instrumentation(Instrumentation real) {
        return new DelegatingInstrumentation(real, this);
    }

    /**
     * What holding targets cost the host so far: "N classes waited M ms" (at most one class per
     * loading thread waits at a time, so this is wall time of the host's threads, not of the agent).
     */
    public String holds() {
        return heldClasses.get() + " class(es) waited " + heldNanos.get() / 1_000_000 + " ms";
    }

    /**
     * Whether a class that may be a probe target loaded before ByteBuddy's transformer was there
     * (loaded by the start itself, or after a hold timed out or was interrupted): instances of it
     * may exist before its probes do, as after a late attach.
     */
    public boolean targetLoadedEarly() {
        return targetLoadedEarly;
    }

    /** The start failed before ByteBuddy's transformer was there: held classes load unchanged. */
    public void abandon() {
        settled.countDown();
    }

    void attach(ClassFileTransformer transformer) {
        delegate = transformer;
        settled.countDown();
    }

    boolean detach(ClassFileTransformer transformer) {
        if (delegate != transformer) {
            return false;
        }
        delegate = null;
        return true;
    }

    @Override
    public byte[] transform(
            ClassLoader loader, String name, Class<?> redefined, ProtectionDomain domain, byte[] classFile)
            throws IllegalClassFormatException {
        ClassFileTransformer target = target(loader, name, redefined, classFile);
        return target == null ? null : target.transform(loader, name, redefined, domain, classFile);
    }

    @Override
    public byte[] transform(
            Module module,
            ClassLoader loader,
            String name,
            Class<?> redefined,
            ProtectionDomain domain,
            byte[] classFile)
            throws IllegalClassFormatException {
        ClassFileTransformer target = target(loader, name, redefined, classFile);
        return target == null ? null : target.transform(module, loader, name, redefined, domain, classFile);
    }

    /** ByteBuddy's transformer when the class is for it, else null (the class loads unchanged). */
    private ClassFileTransformer target(ClassLoader loader, String name, Class<?> redefined, byte[] classFile) {
        if (loader == null) {
            return null; // the bootstrap loader's classes are never targets (ByteBuddy ignores them too)
        }
        ClassFileTransformer current = delegate;
        if (redefined != null) {
            // a retransformation: ByteBuddy chose the class from the loaded ones, or another agent
            // asked; ByteBuddy's matchers decide on the loaded class, which costs nothing to describe
            return current;
        }
        if (!filter.mayMatch(name, loader, classFile)) {
            return null;
        }
        if (current != null || settled.getCount() == 0) {
            return current;
        }
        return awaitDelegate(name);
    }

    private ClassFileTransformer awaitDelegate(String name) {
        if (Thread.currentThread() == starter) {
            // loaded by the start itself: ByteBuddy's scan of loaded classes instruments it
            targetLoadedEarly = true;
            return null;
        }
        long began = System.nanoTime();
        try {
            if (!settled.await(HOLD_SECONDS, TimeUnit.SECONDS)) {
                Log.warnOnce(
                        "start-hold",
                        "the agent was still starting after " + HOLD_SECONDS + " s when " + name.replace('/', '.')
                                + " loaded; it loads now, and gets its probes when the agent's start"
                                + " retransforms the classes loaded by then",
                        null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the host's interrupt: let the class load now
        } finally {
            heldClasses.incrementAndGet();
            heldNanos.addAndGet(System.nanoTime() - began);
        }
        ClassFileTransformer current = delegate;
        if (current == null) {
            targetLoadedEarly = true;
        }
        return current;
    }
}
