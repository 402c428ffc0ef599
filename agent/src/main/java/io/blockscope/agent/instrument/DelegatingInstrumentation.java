package io.blockscope.agent.instrument;

import java.lang.instrument.ClassDefinition;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarFile;

/**
 * The JVM's {@link Instrumentation} as ByteBuddy's installation sees it: the transformer ByteBuddy
 * adds becomes the {@link DeferredTransformer}'s delegate instead of a second registration, and
 * everything else (the scan of loaded classes, their retransformation) is the JVM's.
 */
final class DelegatingInstrumentation implements Instrumentation {

    private final Instrumentation real;
    private final DeferredTransformer front;

    DelegatingInstrumentation(Instrumentation real, DeferredTransformer front) {
        this.real = real;
        this.front = front;
    }

    @Override
    public void addTransformer(ClassFileTransformer transformer, boolean canRetransform) {
        front.attach(transformer);
    }

    @Override
    public void addTransformer(ClassFileTransformer transformer) {
        front.attach(transformer);
    }

    @Override
    public boolean removeTransformer(ClassFileTransformer transformer) {
        return front.detach(transformer);
    }

    @Override
    public boolean isRetransformClassesSupported() {
        return real.isRetransformClassesSupported();
    }

    @Override
    public void retransformClasses(Class<?>... classes) throws UnmodifiableClassException {
        real.retransformClasses(classes);
    }

    @Override
    public boolean isRedefineClassesSupported() {
        return real.isRedefineClassesSupported();
    }

    @Override
    public void redefineClasses(ClassDefinition... definitions)
            throws ClassNotFoundException, UnmodifiableClassException {
        real.redefineClasses(definitions);
    }

    @Override
    public boolean isModifiableClass(Class<?> type) {
        return real.isModifiableClass(type);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Class[] getAllLoadedClasses() {
        return real.getAllLoadedClasses();
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Class[] getInitiatedClasses(ClassLoader loader) {
        return real.getInitiatedClasses(loader);
    }

    @Override
    public long getObjectSize(Object object) {
        return real.getObjectSize(object);
    }

    @Override
    public void appendToBootstrapClassLoaderSearch(JarFile jar) {
        real.appendToBootstrapClassLoaderSearch(jar);
    }

    @Override
    public void appendToSystemClassLoaderSearch(JarFile jar) {
        real.appendToSystemClassLoaderSearch(jar);
    }

    @Override
    public boolean isNativeMethodPrefixSupported() {
        return false; // the agent wraps no native methods; a prefix would belong to the front transformer
    }

    @Override
    public void setNativeMethodPrefix(ClassFileTransformer transformer, String prefix) {
        throw new UnsupportedOperationException("the agent wraps no native methods");
    }

    @Override
    public void redefineModule(
            Module module,
            Set<Module> extraReads,
            Map<String, Set<Module>> extraExports,
            Map<String, Set<Module>> extraOpens,
            Set<Class<?>> extraUses,
            Map<Class<?>, List<Class<?>>> extraProvides) {
        real.redefineModule(module, extraReads, extraExports, extraOpens, extraUses, extraProvides);
    }

    @Override
    public boolean isModifiableModule(Module module) {
        return real.isModifiableModule(module);
    }
}
