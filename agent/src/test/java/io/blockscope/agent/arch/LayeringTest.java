package io.blockscope.agent.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keeps the agent's layers pointing one way: start-up -> metrics -> instrument, record -> profile ->
 * bootstrap, with config and entry as leaves; and the exporter never knowing the agent. The bridge
 * classes live in the bootstrap class loader and the entry classes are Java 8 bytecode loaded before
 * anything is checked: either reaching into another package would break a host at run time.
 */
class LayeringTest {

    private static final String AGENT = "io.blockscope.agent";
    private static final String EXPORTER = "io.blockscope.exporter";

    private static JavaClasses production;

    @BeforeAll
    static void importProductionClasses() {
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                // the exporter's shared test helpers arrive as its test jar once it is packaged
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages(AGENT, EXPORTER);
    }

    @Test
    void agentLayersPointDownward() {
        layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("startup")
                .definedBy(AGENT)
                .layer("diagnostics")
                .definedBy(AGENT + ".diagnostics..")
                .layer("metrics")
                .definedBy(AGENT + ".metrics..")
                .layer("instrument")
                .definedBy(AGENT + ".instrument..")
                .layer("record")
                .definedBy(AGENT + ".record..")
                .layer("profile")
                .definedBy(AGENT + ".profile..")
                .layer("bootstrap")
                .definedBy(AGENT + ".bootstrap..")
                .layer("config")
                .definedBy(AGENT + ".config..")
                .layer("entry")
                .definedBy(AGENT + ".entry..")
                .whereLayer("startup")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("diagnostics")
                .mayNotBeAccessedByAnyLayer() // found by ServiceLoader, in the diagnostics jar only
                .whereLayer("metrics")
                .mayOnlyBeAccessedByLayers("startup")
                .whereLayer("instrument")
                .mayOnlyBeAccessedByLayers("startup", "metrics", "diagnostics")
                .whereLayer("record")
                .mayOnlyBeAccessedByLayers("startup", "metrics")
                .whereLayer("profile")
                .mayOnlyBeAccessedByLayers("startup", "metrics", "instrument", "record", "diagnostics")
                .whereLayer("bootstrap")
                .mayOnlyBeAccessedByLayers("startup", "metrics", "instrument", "record", "profile", "diagnostics")
                .whereLayer("config")
                .mayOnlyBeAccessedByLayers("startup")
                .whereLayer("entry")
                .mayOnlyBeAccessedByLayers("startup") // the launcher reuses its version check
                .check(production);
    }

    @Test
    void bootstrapAndEntryReachNothingElseOfBlockscope() {
        noClasses()
                .that()
                .resideInAnyPackage(AGENT + ".bootstrap..", AGENT + ".entry..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        AGENT + ".metrics..",
                        AGENT + ".instrument..",
                        AGENT + ".record..",
                        AGENT + ".profile..",
                        AGENT + ".config..",
                        EXPORTER + "..")
                .check(production);
    }

    /** The diagnostics build's recording gate is loaded by the bootstrap loader too: the JDK only. */
    @Test
    void theRecordingGateReachesNothingOfBlockscope() {
        noClasses()
                .that()
                .resideInAPackage(AGENT + ".diagnostics.bootstrap..")
                .should()
                .dependOnClassesThat()
                .resideOutsideOfPackages(AGENT + ".diagnostics.bootstrap..", "java..")
                .check(production);
    }

    @Test
    void theExporterNeverKnowsTheAgent() {
        noClasses()
                .that()
                .resideInAPackage(EXPORTER + "..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage(AGENT + "..")
                .check(production);
    }

    /** A new package must be placed in a layer and say in a package-info what it owns. */
    @Test
    void everyPackageIsPlacedAndDocumented() {
        Set<String> known =
                Set.of("", "metrics", "instrument", "record", "profile", "bootstrap", "config", "entry", "diagnostics");
        Set<String> unplaced = new TreeSet<>();
        Set<String> undocumented = new TreeSet<>();
        for (JavaClass type : production) {
            String pkg = type.getPackageName();
            if (pkg.startsWith(AGENT)) {
                String rest = pkg.length() == AGENT.length()
                        ? ""
                        : pkg.substring(AGENT.length() + 1).split("\\.")[0];
                if (!known.contains(rest)) {
                    unplaced.add(pkg);
                }
            }
            if (production.stream().noneMatch(c -> c.getName().equals(pkg + ".package-info"))) {
                undocumented.add(pkg);
            }
        }
        assertEquals(Set.of(), unplaced, "agent packages no layer covers: add them to LayeringTest");
        assertEquals(Set.of(), undocumented, "packages without a package-info.java saying what they own");
    }
}
