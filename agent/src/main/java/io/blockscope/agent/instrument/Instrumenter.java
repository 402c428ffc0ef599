package io.blockscope.agent.instrument;

import static net.bytebuddy.matcher.ElementMatchers.any;
import static net.bytebuddy.matcher.ElementMatchers.declaresMethod;
import static net.bytebuddy.matcher.ElementMatchers.hasSuperClass;
import static net.bytebuddy.matcher.ElementMatchers.hasSuperType;
import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isBootstrapClassLoader;
import static net.bytebuddy.matcher.ElementMatchers.isBridge;
import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.isInterface;
import static net.bytebuddy.matcher.ElementMatchers.isSynthetic;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.none;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.blockscope.agent.bootstrap.AdviceErrors;
import io.blockscope.agent.bootstrap.Copies;
import io.blockscope.agent.profile.Component;
import io.blockscope.agent.profile.MethodSpec;
import io.blockscope.agent.profile.ProbeKind;
import io.blockscope.agent.profile.ProbeSpec;
import io.blockscope.agent.profile.Profile;
import io.blockscope.agent.profile.TypeSpec;
import io.blockscope.agent.profile.ValueRef;
import io.blockscope.exporter.Log;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDefinition;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.Nexus;
import net.bytebuddy.implementation.bytecode.StackManipulation;
import net.bytebuddy.implementation.bytecode.constant.IntegerConstant;
import net.bytebuddy.implementation.bytecode.member.MethodInvocation;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.matcher.ElementMatchers;
import net.bytebuddy.utility.JavaModule;

/**
 * Turns a {@link Profile} into one ByteBuddy {@link AgentBuilder}: a decorator per probe, inlined
 * exit advice, no class format changes, and retransformation so a late attach instruments classes
 * that are already loaded. Nothing here runs on the host's hot path: this is all install time and
 * class-load time.
 */
public final class Instrumenter {

    private final Profile profile;
    private final List<String> tiers;
    private final ProbeStatus status;
    /** Probes that decorated a class being transformed, until ByteBuddy reports success or failure. */
    private final Map<String, List<Integer>> pending = new ConcurrentHashMap<>();
    /** Loaded classes retransformed by installs and removals so far, and those that failed. */
    private final AtomicLong retransformed = new AtomicLong();

    private final AtomicLong retransformFailures = new AtomicLong();

    /** Whether instances of target classes may predate the probes (a late attach, or an early load). */
    private final boolean instancesMayExist;

    /** The build's extension of the probes' conditions; null in the production jar. */
    private final ProbeExtension extension;

    /** @param instancesMayExist true when target classes may already be loaded and instances built */
    public Instrumenter(Profile profile, ProbeStatus status, boolean instancesMayExist) {
        this(profile, status, instancesMayExist, null);
    }

    /** @param extension the build's {@link ProbeExtension}, or null */
    public Instrumenter(Profile profile, ProbeStatus status, boolean instancesMayExist, ProbeExtension extension) {
        this.profile = profile;
        this.tiers = profile.tiers();
        this.status = status;
        this.instancesMayExist = instancesMayExist;
        this.extension = extension;
    }

    /**
     * The methods {@code probe} instruments. An occupancy probe that names a constructor sees every
     * instance built there when the agent starts with the JVM; its other methods (a cache's
     * {@code getBlock}) are there for a late attach, which must find the instances already built on
     * their next use. At start they would only add an identity hash to every lookup: measured at
     * +1.6% [0.2, 3.2] of an in-process multiget's CPU (docs/benchmarks.md), so they are left out.
     */
    static List<MethodSpec> methodsToInstrument(ProbeSpec probe, boolean instancesMayExist) {
        if (instancesMayExist || probe.kind() != ProbeKind.OCCUPANCY) {
            return probe.methods();
        }
        List<MethodSpec> constructors = new ArrayList<>();
        for (MethodSpec method : probe.methods()) {
            if (method.constructor()) {
                constructors.add(method);
            }
        }
        return constructors.isEmpty() ? probe.methods() : constructors;
    }

    /**
     * Installs every probe; already-loaded matching classes are retransformed before this returns.
     * Only the loaded classes {@code candidates} lets through are shown to ByteBuddy's matchers.
     */
    public ResettableClassFileTransformer install(Instrumentation instrumentation, TargetFilter candidates) {
        return install(instrumentation, candidates, probe -> true);
    }

    /**
     * Installs the probes whose index in the profile {@code probes} accepts, like
     * {@link #install(Instrumentation, TargetFilter)} does all of them.
     */
    public ResettableClassFileTransformer install(
            Instrumentation instrumentation, TargetFilter candidates, IntPredicate probes) {
        // The inlined advice needs no type initializers, so ByteBuddy's Nexus (a class it would
        // inject into the system class loader, through sun.misc.Unsafe, which JDK 24+ warns about on
        // the host's stderr) stays off. Relocated, this property is the agent's own.
        if (System.getProperty(Nexus.PROPERTY) == null) {
            System.setProperty(Nexus.PROPERTY, "true");
        }
        AgentBuilder agent = new AgentBuilder.Default()
                .with(new SoftTypePoolCache())
                .disableClassFormatChanges()
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(new LoadedCandidates(candidates))
                .with(new RetransformationReport(retransformed, retransformFailures))
                .with(new StatusListener())
                .ignore(any(), isBootstrapClassLoader())
                .or(nameStartsWith("io.blockscope.agent."))
                .or(nameStartsWith("net.bytebuddy."))
                .or(nameStartsWith("java.")
                        .or(nameStartsWith("jdk."))
                        .or(nameStartsWith("sun."))
                        .or(nameStartsWith("com.sun.")))
                .or(isSynthetic());
        for (int i = 0; i < profile.probes().size(); i++) {
            if (!probes.test(i)) {
                continue;
            }
            ProbeSpec probe = profile.probes().get(i);
            ElementMatcher.Junction<MethodDescription> methods =
                    methodMatcher(methodsToInstrument(probe, instancesMayExist));
            // not terminal: every probe matching a class decorates it (BucketCache has four)
            agent = agent.type(typeMatcher(probe.types()).and(declaresMethod(methods)))
                    .transform(new ProbeTransformer(i, probe, methods));
        }
        return agent.installOn(instrumentation);
    }

    /**
     * Removes what {@link #install} put in place: {@code transformer} is unregistered (through the
     * same {@code instrumentation} the install used) and the loaded classes it may have changed
     * ({@code candidates}) are retransformed without it before this returns.
     *
     * @return false when {@code transformer} was not registered there (nothing was done)
     */
    public boolean uninstall(
            ResettableClassFileTransformer transformer, Instrumentation instrumentation, TargetFilter candidates) {
        return transformer.reset(
                instrumentation,
                AgentBuilder.RedefinitionStrategy.RETRANSFORMATION,
                new LoadedCandidates(candidates),
                new RetransformationReport(retransformed, retransformFailures));
    }

    /** Loaded classes retransformed by this instrumenter's installs and removals so far. */
    public long retransformed() {
        return retransformed.get();
    }

    /** Loaded classes whose retransformation failed so far (each is logged once). */
    public long retransformFailures() {
        return retransformFailures.get();
    }

    /**
     * The classes a probe names, and the subtypes of its {@code subtype:} roots that are classes. A
     * type named exactly may be an interface: its static methods have code of their own (HBase's
     * {@code Tag.cloneValue(Tag)}); an abstract method is never matched ({@link #methodMatcher}).
     */
    static ElementMatcher.Junction<TypeDescription> typeMatcher(List<TypeSpec> types) {
        ElementMatcher.Junction<TypeDescription> matcher = none();
        for (TypeSpec type : types) {
            matcher = matcher.or(type.subtypes() ? subtypeOf(type.name()).and(not(isInterface())) : named(type.name()));
        }
        return matcher;
    }

    /**
     * Subtypes of {@code name}. For a class, only the superclass chain is walked
     * ({@code hasSuperClass}): far cheaper on every class load than {@code hasSuperType}, which also
     * resolves every implemented interface and its super-interfaces. Interfaces, and types not
     * visible to the system class loader, keep {@code hasSuperType}. Either runs only on the classes
     * the {@link TargetFilter} lets through.
     */
    static ElementMatcher.Junction<TypeDescription> subtypeOf(String name) {
        return TargetFilter.isClass(ClassLoader.getSystemClassLoader(), name.replace('.', '/'))
                ? hasSuperClass(named(name))
                : hasSuperType(named(name));
    }

    static ElementMatcher.Junction<MethodDescription> methodMatcher(List<MethodSpec> methods) {
        ElementMatcher.Junction<MethodDescription> matcher = none();
        for (MethodSpec method : methods) {
            ElementMatcher.Junction<MethodDescription> one =
                    method.constructor() ? isConstructor() : ElementMatchers.<MethodDescription>named(method.name());
            if (method.parameters() != null) {
                one = one.and(takesArguments(method.parameters().size()));
                for (int p = 0; p < method.parameters().size(); p++) {
                    one = one.and(takesArgument(p, named(method.parameters().get(p))));
                }
            }
            matcher = matcher.or(one);
        }
        return matcher.and(not(isAbstract())).and(not(isBridge())).and(not(isSynthetic()));
    }

    /** The exception handler of a probe's advice: count the throwable against the probe, never rethrow. */
    static StackManipulation countErrors(int probe) {
        try {
            return new StackManipulation.Compound(
                    IntegerConstant.forValue(probe),
                    MethodInvocation.invoke(new MethodDescription.ForLoadedMethod(
                            AdviceErrors.class.getMethod("adviceError", Throwable.class, int.class))));
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("bridge lacks adviceError(Throwable, int)", e);
        }
    }

    private final class ProbeTransformer implements AgentBuilder.Transformer {
        private final int index;
        private final ProbeSpec probe;
        private final ElementMatcher.Junction<MethodDescription> methods;

        ProbeTransformer(int index, ProbeSpec probe, ElementMatcher.Junction<MethodDescription> methods) {
            this.index = index;
            this.probe = probe;
            this.methods = methods;
        }

        @Override
        public DynamicType.Builder<?> transform(
                DynamicType.Builder<?> builder,
                TypeDescription type,
                ClassLoader loader,
                JavaModule module,
                java.security.ProtectionDomain domain) {
            int tier = -1;
            if (probe instanceof ProbeSpec.BlockProbe) {
                String label = ((ProbeSpec.BlockProbe) probe).tierFor(hierarchy(type));
                if (label == null) {
                    Log.warnOnce(
                            "probe-tier:" + probe.name() + ":" + type.getName(),
                            "probe " + probe.name() + " skips " + type.getName()
                                    + ": the profile gives no tier for it or its superclasses",
                            null);
                    return builder;
                }
                tier = tiers.indexOf(label);
            }
            DynamicType.Builder<?> out = builder;
            ElementMatcher.Junction<MethodDescription> advised = methods;
            if (probe instanceof ProbeSpec.HeapFallback) {
                // a constructor in its methods only remembers the allocator it builds, so its pool
                // is read from the start: a RegionServer's pool may never fall back to the heap
                out = out.visit(Advice.withCustomMapping()
                        .bind(ProbeId.class, index)
                        .bind(ProbeCondition.class, true)
                        .bind(ProbeValue.class, new ValueMapping(ValueRef.parse("this"), Object.class))
                        .to(Advices.Occupancy.class)
                        .withExceptionHandler(countErrors(index))
                        .on(methods.and(isConstructor())));
                advised = methods.and(not(isConstructor()));
            }
            for (Map.Entry<Integer, ElementMatcher.Junction<MethodDescription>> entry :
                    byComponent().entrySet()) {
                Advice.WithCustomMapping ids = Advice.withCustomMapping()
                        .bind(ProbeId.class, index)
                        .bind(TierId.class, tier)
                        .bind(ComponentId.class, entry.getKey());
                Advice advice = probe.accept(new KindAdvice(ids, extension)).withExceptionHandler(countErrors(index));
                out = out.visit(advice.on(advised.and(entry.getValue())));
            }
            pending.computeIfAbsent(key(type.getName(), loader), k -> new CopyOnWriteArrayList<>())
                    .add(index);
            return out;
        }

        /**
         * Method matchers by component index; one entry (-1, any) for probes without components (a
         * copy counted under its door's component, a door that only names its receiver).
         */
        private Map<Integer, ElementMatcher.Junction<MethodDescription>> byComponent() {
            Map<Integer, ElementMatcher.Junction<MethodDescription>> out = new LinkedHashMap<>();
            if (probe instanceof ProbeSpec.CopyDoor && ((ProbeSpec.CopyDoor) probe).design() != null) {
                out.put(
                        Copies.DESIGNED_DOOR
                                + ((ProbeSpec.CopyDoor) probe).design().ordinal(),
                        any());
                return out;
            }
            for (MethodSpec method : probe.methods()) {
                Component component = componentFor(method.name());
                if (component == null) {
                    out.clear();
                    out.put(-1, any());
                    return out;
                }
                out.merge(component.ordinal(), named(method.name()), ElementMatcher.Junction::or);
            }
            return out;
        }

        private Component componentFor(String method) {
            if (probe instanceof ProbeSpec.Copy) {
                return ((ProbeSpec.Copy) probe).componentFor(method);
            }
            return probe instanceof ProbeSpec.CopyDoor ? ((ProbeSpec.CopyDoor) probe).componentFor(method) : null;
        }
    }

    /** The class's name and its superclasses' names, nearest first. */
    static List<String> hierarchy(TypeDescription type) {
        List<String> names = new ArrayList<>();
        for (TypeDefinition t = type; t != null; t = t.getSuperClass()) {
            names.add(t.asErasure().getName());
        }
        return names;
    }

    private static String key(String typeName, ClassLoader loader) {
        return typeName + "@" + System.identityHashCode(loader);
    }

    /**
     * Marks probes enabled once their class was really rewritten, and logs classes that could not be
     * (a profile value that does not fit the method, usually): those run unchanged.
     */
    private final class StatusListener extends AgentBuilder.Listener.Adapter {
        @Override
        public void onTransformation(
                TypeDescription type, ClassLoader loader, JavaModule module, boolean loaded, DynamicType dynamicType) {
            List<Integer> probes = pending.remove(key(type.getName(), loader));
            if (probes == null) {
                return;
            }
            for (int probe : probes) {
                if (status.applied(probe, type.getName())) {
                    Log.info("probe " + profile.probes().get(probe).name() + " enabled on " + type.getName());
                }
            }
        }

        @Override
        public void onError(
                String typeName, ClassLoader loader, JavaModule module, boolean loaded, Throwable throwable) {
            List<Integer> probes = pending.remove(key(typeName, loader));
            if (probes == null || probes.isEmpty()) {
                // ByteBuddy could not resolve a class while matching (a missing optional dependency,
                // say); no probe wanted it, so it is none of the operator's business
                return;
            }
            List<String> names = new ArrayList<>();
            probes.forEach(p -> names.add(profile.probes().get(p).name()));
            Log.warnOnce(
                    "transform:" + typeName,
                    "could not instrument " + typeName + " for probes " + names
                            + "; the class runs unchanged. Check the profile's value and methods for it",
                    throwable);
        }

        @Override
        public void onComplete(String typeName, ClassLoader loader, JavaModule module, boolean loaded) {
            pending.remove(key(typeName, loader));
        }
    }

    /** Logs failed retransformations of classes that were loaded before a late attach. */
    /** The loaded classes worth matching: those the {@link TargetFilter} cannot rule out. */
    private static final class LoadedCandidates implements AgentBuilder.RedefinitionStrategy.DiscoveryStrategy {
        private final TargetFilter filter;

        LoadedCandidates(TargetFilter filter) {
            this.filter = filter;
        }

        @Override
        public Iterable<Iterable<Class<?>>> resolve(Instrumentation instrumentation) {
            List<Class<?>> candidates = new ArrayList<>();
            for (Class<?> type : instrumentation.getAllLoadedClasses()) {
                if (filter.mayMatch(type)) {
                    candidates.add(type);
                }
            }
            return List.of(candidates);
        }
    }

    private static final class RetransformationReport extends AgentBuilder.RedefinitionStrategy.Listener.Adapter {
        private final AtomicLong retransformed;
        private final AtomicLong failed;

        RetransformationReport(AtomicLong retransformed, AtomicLong failed) {
            this.retransformed = retransformed;
            this.failed = failed;
        }

        @Override
        public void onComplete(int amount, List<Class<?>> types, Map<List<Class<?>>, Throwable> failures) {
            retransformed.addAndGet(types.size());
            failures.keySet().forEach(batch -> failed.addAndGet(batch.size()));
            failures.forEach((batch, error) -> Log.warnOnce(
                    "retransform:" + batch, "could not retransform " + batch + "; those classes run unchanged", error));
        }
    }
}
