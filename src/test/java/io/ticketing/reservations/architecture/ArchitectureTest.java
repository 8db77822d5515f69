package io.ticketing.reservations.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import jakarta.annotation.security.RolesAllowed;

import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethod;
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

    /**
     * The OpenAPI document says who may call an operation from the scheme named beside its role
     * (openapi/ApiDocument): an endpoint whose two annotations disagree would be documented for the wrong tokens.
     */
    @Test
    void everyRoleCheckIsDocumentedAsTheSameScheme() {
        List<String> disagreeing = new ArrayList<>();
        for (JavaClass resource : SERVICE) {
            Optional<RolesAllowed> classRoles = resource.tryGetAnnotationOfType(RolesAllowed.class);
            Optional<SecurityRequirement> classScheme = resource.tryGetAnnotationOfType(SecurityRequirement.class);
            for (JavaMethod method : resource.getMethods()) {
                Optional<RolesAllowed> roles = method.tryGetAnnotationOfType(RolesAllowed.class).or(() -> classRoles);
                Optional<SecurityRequirement> scheme = method.tryGetAnnotationOfType(SecurityRequirement.class)
                        .or(() -> classScheme);
                String allowed = roles.map(r -> String.join(",", r.value())).orElse("");
                String documented = scheme.map(SecurityRequirement::name).orElse("");
                if (!allowed.equals(documented) && (method.isAnnotatedWith(RolesAllowed.class)
                        || method.isAnnotatedWith(SecurityRequirement.class) || isEndpoint(method))) {
                    disagreeing.add(method.getFullName() + ": allows " + allowed + ", documents " + documented);
                }
            }
        }
        assertThat(disagreeing).isEmpty();
    }

    private static boolean isEndpoint(JavaMethod method) {
        return Arrays.stream(new String[]{"GET", "POST", "PUT", "PATCH", "DELETE"})
                .anyMatch(verb -> method.isAnnotatedWith("jakarta.ws.rs." + verb));
    }
}
