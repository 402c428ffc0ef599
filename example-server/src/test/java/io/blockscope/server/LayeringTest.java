package io.blockscope.server;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keeps the server's layers pointing one way: cli -> pe, demo -> rpc -> region ->
 * storefile/filter/load -> cache/cell -> buffer, with config and jvm as leaf utilities. A class that reaches upward (a
 * cache that knows about regions, a cell that knows about RPC) fails the build here.
 */
class LayeringTest {

    private static final String ROOT = "io.blockscope.server";

    private static JavaClasses production;

    @BeforeAll
    static void importProductionClasses() {
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT);
    }

    private static LayeredArchitecture layers() {
        return layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("cli")
                .definedBy(ROOT + ".cli..")
                .layer("pe")
                .definedBy(ROOT + ".pe..")
                .layer("demo")
                .definedBy(ROOT + ".demo..")
                .layer("rpc")
                .definedBy(ROOT + ".rpc..")
                .layer("region")
                .definedBy(ROOT + ".region..")
                .layer("storage")
                .definedBy(ROOT + ".storefile..", ROOT + ".filter..", ROOT + ".load..")
                .layer("cache")
                .definedBy(ROOT + ".cache..")
                .layer("cell")
                .definedBy(ROOT + ".cell..")
                .layer("buffer")
                .definedBy(ROOT + ".buffer..")
                .layer("utilities")
                .definedBy(ROOT + ".config..", ROOT + ".jvm..")
                .whereLayer("cli")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("pe")
                .mayOnlyBeAccessedByLayers("cli")
                .whereLayer("demo")
                .mayOnlyBeAccessedByLayers("cli")
                .whereLayer("rpc")
                .mayOnlyBeAccessedByLayers("cli", "pe")
                .whereLayer("region")
                .mayOnlyBeAccessedByLayers("cli", "pe", "demo", "rpc")
                .whereLayer("storage")
                .mayOnlyBeAccessedByLayers("cli", "pe", "demo", "rpc", "region")
                .whereLayer("cache")
                .mayOnlyBeAccessedByLayers("cli", "pe", "demo", "rpc", "region", "storage")
                .whereLayer("cell")
                .mayOnlyBeAccessedByLayers("cli", "pe", "demo", "rpc", "region", "storage")
                .whereLayer("buffer")
                .mayOnlyBeAccessedByLayers("cli", "pe", "demo", "rpc", "region", "storage", "cache", "cell");
    }

    @Test
    void noLayerReachesUpward() {
        layers().check(production);
    }

    /** A new package must be placed in a layer (and get a package-info), or the rule above ignores it. */
    @Test
    void everyPackageBelongsToALayerAndSaysWhatItOwns() {
        Set<String> known = Set.of(
                "cli",
                "pe",
                "demo",
                "rpc",
                "region",
                "storefile",
                "filter",
                "load",
                "cache",
                "cell",
                "buffer",
                "config",
                "jvm");
        Set<String> unplaced = new TreeSet<>();
        Set<String> undocumented = new TreeSet<>();
        for (JavaClass type : production) {
            String pkg = type.getPackageName();
            if (pkg.equals(ROOT)) {
                continue;
            }
            String top = pkg.substring(ROOT.length() + 1).split("\\.")[0];
            if (!known.contains(top)) {
                unplaced.add(pkg);
            }
            if (production.stream().noneMatch(c -> c.getName().equals(pkg + ".package-info"))) {
                undocumented.add(pkg);
            }
        }
        assertEquals(Set.of(), unplaced, "packages that no layer covers: add them to LayeringTest");
        assertEquals(Set.of(), undocumented, "packages without a package-info.java saying what they own");
    }
}
