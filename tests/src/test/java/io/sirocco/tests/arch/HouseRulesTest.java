package io.sirocco.tests.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The house rules of docs/architecture.md, checked on the compiled main classes of every module (tests left out):
 * no import circle between files, no package cycle, dependencies only down the module table, pubsub-core through the
 * public face of atomic-multicast only, and the multicast protocol never naming a concrete row transport.
 */
class HouseRulesTest
{
    private static JavaClasses classes;

    private static JavaClass outermost(final JavaClass javaClass)
    {
        JavaClass outer = javaClass;
        while (outer.getEnclosingClass().isPresent())
        {
            outer = outer.getEnclosingClass().get();
        }
        return outer;
    }

    @BeforeAll
    static void importMainClasses()
    {
        classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.sirocco");
    }

    /** A file is its top-level class with everything nested in it; two files may not depend on each other, even
     * through others. */
    @Test
    void noImportCircleBetweenFiles()
    {
        slices().assignedFrom(new SliceAssignment()
            {
                @Override
                public SliceIdentifier getIdentifierOf(final JavaClass javaClass)
                {
                    final JavaClass outer = outermost(javaClass);
                    return outer.getPackageName().startsWith("io.sirocco")
                        ? SliceIdentifier.of(outer.getName())
                        : SliceIdentifier.ignore();
                }

                @Override
                public String getDescription()
                {
                    return "source files";
                }
            })
            .should().beFreeOfCycles()
            .check(classes);
    }

    @Test
    void noPackageCycle()
    {
        slices().matching("io.sirocco.(**)").should().beFreeOfCycles()
            .check(classes);
    }

    @Test
    void dependenciesOnlyPointDownTheModuleTable()
    {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("transport").definedBy("io.sirocco.transport..")
            .layer("multicast").definedBy("io.sirocco.multicast..")
            .layer("log").definedBy("io.sirocco.log..")
            .layer("ib").definedBy("io.sirocco.ib..")
            .layer("dds-api").definedBy("io.sirocco.dds..")
            .layer("idl").definedBy("io.sirocco.idl..")
            .layer("pubsub").definedBy("io.sirocco.pubsub..")
            .layer("examples").definedBy("io.sirocco.examples..")
            .whereLayer("examples").mayNotBeAccessedByAnyLayer()
            .whereLayer("pubsub").mayOnlyBeAccessedByLayers("examples")
            .whereLayer("idl").mayOnlyBeAccessedByLayers("examples")
            .whereLayer("dds-api").mayOnlyBeAccessedByLayers("idl", "pubsub", "examples")
            .whereLayer("ib").mayOnlyBeAccessedByLayers("examples")
            .whereLayer("log").mayOnlyBeAccessedByLayers("pubsub", "examples")
            .whereLayer("multicast").mayOnlyBeAccessedByLayers("log", "ib", "pubsub", "examples")
            .whereLayer("transport").mayOnlyBeAccessedByLayers("multicast", "log", "ib", "pubsub", "examples")
            .check(classes);
    }

    /**
     * pubsub-core sees atomic-multicast through its public face: the root package (the group, its subgroups and
     * listeners) and {@code model} (the value types and callbacks below both the face and the mechanisms).
     */
    @Test
    void pubsubUsesThePublicFaceOfMulticastOnly()
    {
        noClasses().that().resideInAPackage("io.sirocco.pubsub..")
            .should().dependOnClassesThat(DescribedPredicate.describe("a multicast mechanism class",
                c -> c.getPackageName().startsWith("io.sirocco.multicast.")
                    && !c.getPackageName().equals("io.sirocco.multicast.model")))
            .check(classes);
    }

    /** Row transports are found through ServiceLoader: the protocol and the registries never name one. */
    @Test
    void multicastProtocolNeverNamesAConcreteRowTransport()
    {
        noClasses().that().resideInAPackage("io.sirocco.multicast..")
            .and().resideOutsideOfPackages("io.sirocco.multicast.spi.shm..", "io.sirocco.multicast.spi.tcp..",
                "io.sirocco.multicast.spi.local..", "io.sirocco.multicast.spi.mixed..")
            .should().dependOnClassesThat().resideInAnyPackage("io.sirocco.multicast.spi.shm..",
                "io.sirocco.multicast.spi.tcp..", "io.sirocco.multicast.spi.local..", "io.sirocco.multicast.spi.mixed..")
            .check(classes);
    }
}
