package io.ticketing.reservations.bench;

import static io.ticketing.reservations.support.LocalResources.freePort;

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
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.ticketing.reservations.support.Eventually;

/**
 * The service under test, as production runs it: {@code java -jar} on the packaged app, its own process. The app is
 * {@code target/quarkus-app}, or the directory the system property {@code service.app} names (to measure another
 * build the same way). Its output goes to {@code target/<name>.log}.
 */
public final class Service implements AutoCloseable {

    public static final String ADMIN = "bench-admin";
    public static final String STOREFRONT = "bench-storefront";

    private final Process process;
    public final String base;
    private final String managementPort;
    /** Where health and metrics answer: the management port, or the API port for a build older than it. */
    public String management;
    private long peakRssKb;

    private Service(Process process, String base, String managementPort) {
        this.process = process;
        this.base = base;
        this.managementPort = managementPort;
    }

    static Service start(String jdbcUrl, String username, String password, Map<String, String> extraEnv)
            throws Exception {
        return start("bench-service", jdbcUrl, username, password, extraEnv);
    }

    public static Service start(String name, String jdbcUrl, String username, String password,
            Map<String, String> extraEnv) throws Exception {
        return start(Path.of(System.getProperty("service.app", "target/quarkus-app")), name, jdbcUrl, username,
                password, extraEnv);
    }

    /** The app packaged in {@code app} (a {@code quarkus-app} directory). */
    public static Service start(Path app, String name, String jdbcUrl, String username, String password,
            Map<String, String> extraEnv) throws Exception {
        Path jar = app.resolve("quarkus-run.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing: the benchmark command packages the app first");
        }
        int port = freePort();
        int managementPort = freePort();
        // The JVM sizes itself as in the container image (docker/Dockerfile) under the 512 MiB limit of k8s/.
        List<String> command = new ArrayList<>(List.of("java", "-XX:MaxRAM=512m", "-XX:MaxRAMPercentage=60",
                "-XX:+UseSerialGC"));
        // For profiling, e.g. BENCH_SERVICE_JAVA_OPTS=-XX:StartFlightRecording=filename=target/service.jfr
        String extraOptions = System.getenv("BENCH_SERVICE_JAVA_OPTS");
        if (extraOptions != null && !extraOptions.isBlank()) {
            command.addAll(List.of(extraOptions.trim().split("\\s+")));
        }
        command.addAll(List.of("-jar", jar.toString()));
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true).redirectOutput(new File("target/" + name + ".log"));
        Map<String, String> env = builder.environment();
        env.put("QUARKUS_DATASOURCE_JDBC_URL", jdbcUrl);
        env.put("QUARKUS_DATASOURCE_USERNAME", username);
        env.put("QUARKUS_DATASOURCE_PASSWORD", password == null ? "" : password);
        env.put("QUARKUS_HTTP_PORT", Integer.toString(port));
        env.put("QUARKUS_MANAGEMENT_PORT", Integer.toString(managementPort));
        env.put("AUTH_ADMIN_TOKENS", ADMIN);
        env.put("AUTH_STOREFRONT_TOKENS", STOREFRONT);
        // One load generator stands for every buyer of a scenario (the waiting room's takes a ticket after each
        // admission): the limit per client address is not what is measured.
        env.put("WAITING_ROOM_TICKETS_PER_CLIENT", "1000000");
        env.put("QUARKUS_LOG_LEVEL", "WARN");
        env.putAll(extraEnv);
        Service service = new Service(builder.start(), "http://127.0.0.1:" + port,
                "http://127.0.0.1:" + managementPort);
        try {
            service.awaitReady();
        } catch (RuntimeException | AssertionError e) {
            service.kill();
            throw e;
        }
        return service;
    }

    private void awaitReady() {
        HttpClient http = HttpClient.newHttpClient();
        Eventually.within(Duration.ofSeconds(60), "the service ready on " + base, () -> {
            if (!process.isAlive()) {
                throw new IllegalStateException("the service exited; see target/bench-service.log");
            }
            for (String candidate : List.of(managementPort, base)) {
                try {
                    if (http.send(HttpRequest.newBuilder(URI.create(candidate + "/q/health/ready")).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                        management = candidate;
                        return true;
                    }
                } catch (IOException notListeningYet) {
                    // not yet, or not there in this build
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            return false;
        });
    }

    private String scrapeMetrics() throws Exception {
        return HttpClient.newHttpClient()
                .send(HttpRequest.newBuilder(URI.create(management + "/q/metrics"))
                        .header("Authorization", "Bearer " + ADMIN).build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }

    /** One value from /q/metrics, summed over its label sets; 0 when absent. */
    double metric(String name) throws Exception {
        String text = scrapeMetrics();
        double sum = 0;
        Matcher matcher = Pattern.compile("(?m)^" + Pattern.quote(name) + "(\\{[^}]*})? ([0-9.eE+-]+)$").matcher(text);
        while (matcher.find()) {
            sum += Double.parseDouble(matcher.group(2));
        }
        return sum;
    }

    /** The lock wait histogram's cumulative bucket counts, by upper bound in seconds. */
    TreeMap<Double, Double> lockWaitBuckets() throws Exception {
        String text = scrapeMetrics();
        TreeMap<Double, Double> buckets = new TreeMap<>();
        Matcher matcher = Pattern
                .compile("(?m)^inventory_lock_wait_seconds_bucket\\{le=\"([^\"]+)\"[^}]*} ([0-9.eE+-]+)$")
                .matcher(text);
        while (matcher.find()) {
            double bound = matcher.group(1).equals("+Inf")
                    ? Double.POSITIVE_INFINITY
                    : Double.parseDouble(matcher.group(1));
            buckets.merge(bound, Double.parseDouble(matcher.group(2)), Double::sum);
        }
        return buckets;
    }

    /** Samples the service's resident memory; the peak is kept. */
    void sampleMemory() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
                if (line.startsWith("VmHWM:")) {
                    peakRssKb = Math.max(peakRssKb, Long.parseLong(line.replaceAll("\\D", "")));
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux, or the process is gone: the peak stays unknown
        }
    }

    long peakRssMb() {
        return peakRssKb / 1024;
    }

    /** The service's resident memory now, in MiB (0 where /proc is missing). */
    long rssMb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) / 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux, or the process is gone
        }
        return 0;
    }

    /** {@code kill -9}: no shutdown of any kind. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    /** {@code kill -TERM}, as Kubernetes stops a pod; returns how long the process took to exit. */
    public Duration terminate() throws InterruptedException {
        long sent = System.nanoTime();
        process.destroy();
        process.waitFor();
        return Duration.ofNanos(System.nanoTime() - sent);
    }

    long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() {
        process.destroy();
    }
}
