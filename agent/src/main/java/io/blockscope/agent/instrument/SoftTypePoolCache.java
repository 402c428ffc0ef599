package io.blockscope.agent.instrument;

import java.util.Map;
import java.util.WeakHashMap;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.pool.TypePool;

/**
 * Type descriptions ByteBuddy parses while matching, kept per class loader across class loads.
 * Without it every loaded class re-parses its whole superclass and interface chain from the class
 * files (ByteBuddy's default pool caches within one transformation only), which for a subtype
 * matcher on a server that loads tens of thousands of classes (an HBase RegionServer) costs
 * seconds of start-up. The cache is softly referenced (the GC may drop it under memory pressure,
 * it is rebuilt on demand) and weakly keyed by loader (an unloaded loader's entry goes away). The
 * lock is taken on the class-loading path only, never in advice.
 */
final class SoftTypePoolCache extends AgentBuilder.PoolStrategy.WithTypePoolCache {

    private final Map<ClassLoader, TypePool.CacheProvider> providers = new WeakHashMap<>();

    SoftTypePoolCache() {
        super(TypePool.Default.ReaderMode.FAST);
    }

    @Override
    protected synchronized TypePool.CacheProvider locate(ClassLoader loader) {
        TypePool.CacheProvider provider = providers.get(loader);
        if (provider == null) {
            provider = new TypePool.CacheProvider.Simple.UsingSoftReference();
            providers.put(loader, provider);
        }
        return provider;
    }
}
