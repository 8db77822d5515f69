package io.ticketing.reservations.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/** Rules of the code's shape that a reviewer would otherwise have to re-check on every change. */
class ArchitectureTest {

    private static final JavaClasses SERVICE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.ticketing.reservations");

    @Test
    void featurePackagesDependOnEachOtherWithoutCycles() {
        slices().matching("io.ticketing.reservations.(*)..").should().beFreeOfCycles().check(SERVICE);
    }

    /** Time the service decides comes from the injected clock, which tests can set (time/ServiceClock). */
    @Test
    void theServiceReadsTimeOnlyFromItsClock() {
        noClasses().should().callMethod(Instant.class, "now")
                .orShould().callMethod(OffsetDateTime.class, "now")
                .orShould().callMethod(ZonedDateTime.class, "now")
                .orShould().callMethod(LocalDateTime.class, "now")
                .orShould().callMethod(LocalDate.class, "now")
                .check(SERVICE);
    }
}
