package io.ticketing.reservations.startup;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** The production start (no embedded database switch) must never run without a configured database. */
class MainTest {

    @Test
    void startWithoutADatasourceUrlStopsAtOnceAndNamesTheMissingVariable() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                Main.class.getName()).redirectErrorStream(true);
        builder.environment().remove(Main.URL_VARIABLE);
        builder.environment().remove("EMBEDDED_POSTGRES_ENABLED");
        Process process = builder.start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.exitValue()).isEqualTo(2);
        assertThat(output).contains("QUARKUS_DATASOURCE_JDBC_URL is not set");
    }
}
