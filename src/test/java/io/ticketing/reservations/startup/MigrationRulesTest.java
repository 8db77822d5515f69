package io.ticketing.reservations.startup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The rules every migration keeps so that it can be applied while the previous release sells (docs/operations.md,
 * "Migrations"): expand now, contract in a later release. A migration never drops, renames or retypes what a
 * running release may read or call, and never sets its own lock wait ({@link Migrations} bounds every wait). The
 * statements written before these rules are listed with why they were safe then; nothing may join that list.
 */
class MigrationRulesTest {

    private static final Path MIGRATIONS = Path.of("src/main/resources/db/migration");

    /** What the previous release may still read or call, gone or changed under it. */
    private static final Map<String, Pattern> CONTRACTING = Map.of(
            "drops a table", Pattern.compile("(?i)\\bDROP\\s+TABLE\\b"),
            "drops a column", Pattern.compile("(?i)\\bDROP\\s+COLUMN\\b"),
            "renames", Pattern.compile("(?i)\\bRENAME\\b"),
            "retypes a column", Pattern.compile("(?i)\\bALTER\\s+COLUMN\\s+\\w+\\s+(SET\\s+DATA\\s+)?TYPE\\b"),
            "makes a column NOT NULL", Pattern.compile("(?i)\\bSET\\s+NOT\\s+NULL\\b"),
            "drops a function or view", Pattern.compile("(?i)\\bDROP\\s+(FUNCTION|VIEW|TRIGGER|TYPE)\\b"),
            "sets its own lock wait", Pattern.compile("(?im)^\\s*SET\\s+(LOCAL\\s+)?lock_timeout\\b"));

    /**
     * Each applied before these rules, to a database no older release served at the time: a start ran the migrations
     * with every replica replaced (V11, V19, V20, V28), or waited 3 s before the global bound (V31).
     */
    private static final List<String> BEFORE_THE_RULES = List.of(
            "V11 makes a column NOT NULL", "V19 drops a function or view", "V20 makes a column NOT NULL",
            "V28 retypes a column", "V31 sets its own lock wait");

    @Test
    void noMigrationTakesAwayWhatTheRunningReleaseUses() throws IOException {
        List<String> found = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> listed = Files.list(MIGRATIONS)) {
            files = listed.filter(file -> file.getFileName().toString().endsWith(".sql")).sorted().toList();
        }
        for (Path file : files) {
            String version = file.getFileName().toString().split("__")[0];
            String sql = withoutComments(Files.readString(file));
            CONTRACTING.forEach((what, pattern) -> {
                if (pattern.matcher(sql).find()) {
                    found.add(version + " " + what);
                }
            });
        }
        assertThat(files).hasSizeGreaterThan(30);
        assertThat(found).as("statements that would break the release running beside a rolling upgrade")
                .containsExactlyInAnyOrderElementsOf(BEFORE_THE_RULES);
    }

    /** SQL without its {@code --} comments, which may name what they must not do. */
    private static String withoutComments(String sql) {
        Matcher comment = Pattern.compile("--[^\\n]*").matcher(sql);
        return comment.replaceAll("");
    }
}
