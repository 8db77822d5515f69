package io.ticketing.reservations.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * The document as a storefront team's tools read it: Spectral's {@code spectral:oas} rules, the ones API linters and
 * editors apply, with no error and no warning (every operation described, {@code servers} and {@code contact} set,
 * no unused component). Spectral is an npm package: where npm is missing this test is skipped, and says so; where it
 * is present the pinned CLI is installed under {@code target/}. It reads the committed document, which
 * {@link OpenApiDocumentTest} proves is the served one.
 */
class SpectralTest {

    private static final String CLI = "@stoplight/spectral-cli@6.16.3";
    private static final Path HOME = Path.of("target/spectral");

    @Test
    void shouldPassSpectralsOasRulesWithoutAWarning() throws Exception {
        assumeTrue(onPath("npm"), "npm is not installed: Spectral's check of the OpenAPI document is skipped");
        Path spectral = HOME.resolve("node_modules/.bin/spectral");
        if (!Files.isExecutable(spectral)) {
            Files.createDirectories(HOME);
            Run install = run(List.of("npm", "install", "--prefix", HOME.toString(), "--no-audit", "--no-fund",
                    "--loglevel=error", CLI));
            assertThat(install.exit()).as("npm install " + CLI + ":\n" + install.output()).isZero();
        }
        Path ruleset = HOME.resolve("spectral.yaml");
        Files.writeString(ruleset, "extends: [\"spectral:oas\"]\n");
        Run lint = run(List.of(spectral.toString(), "lint", "--ruleset", ruleset.toString(), "--fail-severity",
                "hint", "--format", "text", OpenApiDocumentTest.COMMITTED.toString()));
        assertThat(lint.exit()).as("spectral lint:\n" + lint.output()).isZero();
        assertThat(lint.output()).as("spectral lint").doesNotContain("warning", "error");
    }

    private record Run(int exit, String output) {
    }

    private static Run run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        byte[] output = process.getInputStream().readAllBytes();
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).as(String.join(" ", command) + " ends").isTrue();
        return new Run(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    private static boolean onPath(String program) {
        String path = System.getenv("PATH");
        return path != null && List.of(path.split(File.pathSeparator)).stream()
                .anyMatch(directory -> Files.isExecutable(Path.of(directory, program)));
    }
}
