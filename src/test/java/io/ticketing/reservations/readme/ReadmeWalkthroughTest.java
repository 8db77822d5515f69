package io.ticketing.reservations.readme;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The curl walkthrough the README leads to (docs/walkthrough.md), exactly as written there, run twice in a row against
 * the service; and the README's two commands, which the walkthrough starts from.
 */
@QuarkusTest
class ReadmeWalkthroughTest {

    private static final String HEADING = "## The whole sale with `curl`";
    private static final String WAITING_LIST = "## The waiting list and order changes with `curl`";
    private static final String DATES = "## Dates, passes and bundles with `curl`";
    private static final String CHANNELS = "## A box office's share with `curl`";
    private static final String SEATING_PLAN = "## A seating plan with `curl`";
    private static final String DOORS = "## At the doors with `curl`";
    private static final String WALKTHROUGH = "docs/walkthrough.md";

    @TestHTTPResource("/api/v1")
    URI api;

    @Test
    void shouldRunTheReadmesWalkthroughTwiceInARow() throws Exception {
        assumeTrue(onPath("bash") && onPath("curl"), "the walkthrough needs bash and curl");
        String walkthrough = walkthrough(HEADING) + walkthrough(WAITING_LIST) + walkthrough(DATES)
                + walkthrough(CHANNELS) + walkthrough(SEATING_PLAN) + walkthrough(DOORS);
        for (int run = 1; run <= 2; run++) {
            String output = runInBash(walkthrough);
            assertThat(output).as("run %d", run).contains("\"total\":\"187.00\"")
                    .contains("\"code\":\"seat_unavailable\"")
                    .contains("\"status\":\"pending\"").contains("\"status\":\"paid\"")
                    .contains("\"status\":\"canceled\"").contains("offered: WL-")
                    .contains("\"status\":\"redeemed\"").contains("\"total\":\"75.00\"")
                    .contains("\"code\":\"date_required\"").contains("\"total\":\"37.00\"")
                    .contains("\"available_number\":6").contains("\"unused\":0")
                    .contains("\"channel\":\"desk-").contains("\"name\":\"Stalls, row 1, seat 2\"")
                    .contains("\"code\":\"seat_in_use\"").contains("\"result\":\"already_inside\"")
                    .contains("\"inside\":1").contains("\"code\":\"position_inside\"")
                    .contains("\"result\":\"unknown\"");
        }
    }

    @Test
    void shouldKeepTheTwoCommandsInTheReadmeAndLeadToTheWalkthrough() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        assertThat(readme).as("the run command, the test command and the link to the walkthrough")
                .contains("\n./mvnw quarkus:dev ").contains("\n./mvnw verify ").contains("](" + WALKTHROUGH + ")");
    }

    /** The first {@code sh} block after {@code title}; each block goes on from the ones before it. */
    private static String walkthrough(String title) throws IOException {
        String page = Files.readString(Path.of(WALKTHROUGH));
        int heading = page.indexOf(title);
        assertThat(heading).as("the walkthrough's heading %s", title).isNotNegative();
        int start = page.indexOf("```sh\n", heading) + "```sh\n".length();
        return page.substring(start, page.indexOf("```", start));
    }

    private String runInBash(String script) throws Exception {
        ProcessBuilder bash = new ProcessBuilder("bash", "-euo", "pipefail", "-c", script).redirectErrorStream(true);
        bash.environment().put("BASE", api.toString());
        bash.environment().put("ADMIN_TOKEN", "test-admin-token");
        bash.environment().put("STOREFRONT_TOKEN", "test-storefront-token");
        Process process = bash.start();
        byte[] output = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String printed = new String(output, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as("the walkthrough's exit status; it printed:%n%s", printed).isZero();
        return printed;
    }

    private static boolean onPath(String command) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String directory : path.split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(directory, command))) {
                return true;
            }
        }
        return false;
    }
}
