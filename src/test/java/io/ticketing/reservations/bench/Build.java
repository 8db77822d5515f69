package io.ticketing.reservations.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One way of running the service in a benchmark: a packaged app, the environment it starts with, and whether its
 * buyers and admin send an organizer's API tokens (contract section 11) instead of the configured ones. Several
 * builds in one run are measured in interleaved rounds, on the same machine at the same time.
 */
record Build(String label, Path app, Map<String, String> env, boolean organizerTokens) {

    /**
     * This build ({@code service.app}, or {@code target/quarkus-app}); before it the build {@code bench.compare}
     * names, if any; with {@code bench.combine=both} this build twice, combining claims and not; then this build with
     * the settings of each of {@code bench.variants}; with {@code bench.organizer-tokens=both}, last, this build with
     * an organizer's tokens ({@code true}: every build with them).
     */
    static List<Build> fromProperties() {
        List<Build> builds = new ArrayList<>();
        String tokens = System.getProperty("bench.organizer-tokens", "false");
        boolean organizer = tokens.equals("true");
        String compare = System.getProperty("bench.compare");
        if (compare != null && !compare.isBlank()) {
            Path app = Path.of(compare);
            builds.add(new Build(commitOf(app), app, Map.of(), organizer));
        }
        Path app = Path.of(System.getProperty("service.app", "target/quarkus-app"));
        String combine = System.getProperty("bench.combine", "true");
        List<String> modes = combine.equals("both") ? List.of("true", "false") : List.of(combine);
        for (String mode : modes) {
            String label = commitOf(app) + (mode.equals("true") ? "" : " combine=" + mode);
            // Without combined claims a waiting request gains nothing from a thread of its own: such a service runs
            // with the thread settings it had before them, which sold more a second (docs/benchmark-history.md).
            builds.add(new Build(label, app, mode.equals("true")
                    ? Map.of("RESERVATION_COMBINE", mode)
                    : Map.of("RESERVATION_COMBINE", mode, "WORKER_THREADS", "8", "LOCK_REQUESTS_PER_EVENT", "6"),
                    organizer));
        }
        // What one feature costs: this build again with some settings changed, e.g.
        // -Dbench.variants="no gate:LOCK_WRITERS_PER_EVENT=3,LOCK_REQUESTS_PER_EVENT=64;no log:REQUEST_LOG=false"
        for (String variant : System.getProperty("bench.variants", "").split(";")) {
            if (!variant.isBlank()) {
                String[] nameAndSettings = variant.split(":", 2);
                Map<String, String> env = new java.util.TreeMap<>();
                for (String setting : nameAndSettings[1].split(",")) {
                    String[] pair = setting.split("=", 2);
                    env.put(pair[0].trim(), pair[1].trim());
                }
                builds.add(new Build(commitOf(app) + " " + nameAndSettings[0].trim(), app, env, organizer));
            }
        }
        if (tokens.equals("both")) {
            builds.add(new Build(commitOf(app) + " organizer tokens", app, Map.of(), true));
        }
        return builds;
    }

    /** The short commit of the checkout the app was built in, or the app's path outside a git checkout. */
    private static String commitOf(Path app) {
        try {
            Process git = new ProcessBuilder("git", "-C", app.toAbsolutePath().toString(), "rev-parse", "--short",
                    "HEAD").redirectErrorStream(true).start();
            String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (git.waitFor() == 0 && !out.isEmpty()) {
                return out;
            }
        } catch (IOException e) {
            // no git: the path names it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return app.toString();
    }
}
