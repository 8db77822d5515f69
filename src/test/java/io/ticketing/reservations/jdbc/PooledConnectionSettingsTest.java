package io.ticketing.reservations.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * What every pooled connection sets before its first statement (application.properties). The embedded PostgreSQL has
 * no LLVM, so no test here can see JIT compile; this one sees that it could not on a server that has it.
 */
@QuarkusTest
class PooledConnectionSettingsTest {

    @Inject
    AgroalDataSource pool;

    @Test
    void everyPooledConnectionPlansOnceAndNeverCompilesAPlan() throws Exception {
        try (Connection connection = pool.getConnection();
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(
                        "SELECT current_setting('plan_cache_mode'), current_setting('jit')")) {
            assertThat(row.next()).isTrue();
            assertThat(row.getString(1)).isEqualTo("force_generic_plan");
            assertThat(row.getString(2)).as("JIT compiled the quota count's generic plan on every add to cart")
                    .isEqualTo("off");
        }
    }
}
