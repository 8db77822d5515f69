package io.ticketing.reservations.tasks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.ticketing.reservations.startup.EmbeddedDatabase;

/**
 * Deletes and sweeps that must not read a whole table: the lookups PostgreSQL makes for a foreign key when a
 * voucher, item or quota is deleted (and the in-use checks before it), and the housekeeping deletes of finished
 * tasks and delivered webhooks, which run on every replica however long the history grows. Asked of the migrated
 * schema itself: with sequential scans priced out, each plan must reach its table through an index on the column.
 */
class DeleteIndexesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static EmbeddedDatabase database;
    private static Connection connection;

    @BeforeAll
    static void migrate() throws Exception {
        database = EmbeddedDatabase.throwaway(Path.of("target", "delete-indexes-postgres"));
        Flyway.configure().dataSource(database.jdbcUrl(), database.username(), database.password()).load().migrate();
        connection = DriverManager.getConnection(database.jdbcUrl(), database.username(), database.password());
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET enable_seqscan = off");
        }
    }

    @AfterAll
    static void stop() throws Exception {
        connection.close();
        database.close();
    }

    @Test
    void foreignKeyLookupsOfDeletedVouchersItemsAndQuotasUseAnIndex() throws Exception {
        // What PostgreSQL runs per deleted row for ON DELETE NO ACTION, and what the in-use checks ask.
        for (List<String> lookup : List.of(List.of("order_positions", "voucher_id"),
                List.of("cart_positions", "voucher_id"), List.of("vouchers", "item_id"),
                List.of("vouchers", "quota_id"))) {
            String table = lookup.get(0);
            String column = lookup.get(1);
            assertReachedThroughAnIndex("SELECT 1 FROM ONLY " + table + " x WHERE " + column + " = 1"
                    + " FOR KEY SHARE OF x", table, column);
        }
    }

    @Test
    void housekeepingDeletesOfFinishedTasksAndDeliveredWebhooksUseAnIndex() throws Exception {
        // A history of recent rows, none old enough to delete: the planner then weighs the plans as in production.
        try (Statement statement = connection.createStatement()) {
            statement.execute("""
                    INSERT INTO tasks (kind, payload, status, max_attempts, finished_at)
                      SELECT 'webhook', '{}', 'done', 1, now() - interval '1 day' FROM generate_series(1, 20000);
                    INSERT INTO webhook_messages (id, type, body, delivered_at)
                      SELECT 'msg_' || n, 'order.paid', '{}', now() - interval '1 day' FROM generate_series(1, 20000) n;
                    ANALYZE tasks, webhook_messages""");
        }
        Map<String, String> columns = Map.of("tasks", "finished_at", "webhook_messages", "delivered_at");
        List<String> checked = new ArrayList<>();
        for (String delete : Housekeeping.STATEMENTS) {
            String table = delete.strip().split("\\s+")[2];
            if (columns.containsKey(table)) {
                assertReachedThroughAnIndex(delete, table, columns.get(table));
                checked.add(table);
            }
        }
        assertThat(checked).containsExactlyInAnyOrderElementsOf(columns.keySet());
    }

    /**
     * No scan of {@code table} in the plan reads it all (a sequential scan, or an index scan without a condition), and
     * one finds its rows by a condition on {@code column}.
     */
    private static void assertReachedThroughAnIndex(String sql, String table, String column) throws Exception {
        JsonNode plan;
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("EXPLAIN (FORMAT JSON) " + sql)) {
            result.next();
            plan = JSON.readTree(result.getString(1)).get(0).get("Plan");
        }
        List<JsonNode> scans = new ArrayList<>();
        collectScans(plan, table, scans);
        assertThat(scans).as("scans of %s in the plan of %s:%n%s", table, sql, plan.toPrettyString())
                .isNotEmpty()
                .allMatch(scan -> !scan.path("Node Type").asText().equals("Seq Scan") && !condition(scan).isEmpty())
                .anyMatch(scan -> condition(scan).contains(column));
    }

    /** A bitmap heap scan names its index's condition as the condition it rechecks. */
    private static String condition(JsonNode scan) {
        return scan.path("Index Cond").asText() + scan.path("Recheck Cond").asText();
    }

    private static void collectScans(JsonNode node, String table, List<JsonNode> scans) {
        if (table.equals(node.path("Relation Name").asText()) && node.path("Node Type").asText().endsWith("Scan")) {
            scans.add(node);
        }
        node.path("Plans").forEach(child -> collectScans(child, table, scans));
    }
}
