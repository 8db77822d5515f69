package io.ticketing.reservations.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import javax.sql.DataSource;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.PersistenceException;

/**
 * The one tool for hand-written SQL: plain JDBC on the transaction's own connection (outside a transaction, a
 * pooled one in auto-commit), called only from each feature's data-access class ({@code CartRows},
 * {@code OrderRows}, {@code InventoryRows}, {@code QuotaCounter}, {@code TaskQueue}, ...), which return records.
 * Hibernate (Panache) keeps only the admin entities: events, items, quotas, seats and vouchers, whose version is
 * their ETag. A Hibernate native query cost about twice the CPU of the same statement sent this way (it resolves
 * its result types on every call, and for array columns throws and catches an exception doing so), and in a sale
 * the service and PostgreSQL share the same cores.
 *
 * <p>Nothing is flushed first: a flow that changed an admin entity and then reads it through SQL flushes it
 * itself ({@code SeatService.update} does). Parameters are named ({@code :items}), as in the SQL constants the
 * benchmark also runs through pgbench.
 */
@ApplicationScoped
public class Jdbc {

    /** Reads one row; the result set is positioned on it. */
    @FunctionalInterface
    public interface RowReader<T> {

        T read(ResultSet row) throws SQLException;
    }

    /** A statement with what to make of each of its rows. */
    public record Query<T>(Statement statement, RowReader<T> reader) {

        public List<T> list() {
            return statement.list(reader);
        }
    }

    private static final Pattern PARAMETER = Pattern.compile("(?<![:\\w]):([A-Za-z_][A-Za-z0-9_]*)");

    /** The SQL with {@code ?} for each named parameter, and the names in order. */
    private record Positional(String sql, List<String> names) {

        static Positional of(String sql) {
            List<String> names = new ArrayList<>();
            Matcher parameter = PARAMETER.matcher(sql);
            StringBuilder positional = new StringBuilder();
            while (parameter.find()) {
                names.add(parameter.group(1));
                parameter.appendReplacement(positional, "?");
            }
            parameter.appendTail(positional);
            return new Positional(positional.toString(), List.copyOf(names));
        }
    }

    private final DataSource dataSource;
    private final Map<String, Positional> statements = new ConcurrentHashMap<>();

    Jdbc(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    public Statement statement(String sql) {
        return new Statement(statements.computeIfAbsent(sql, Positional::of));
    }

    /**
     * One statement with its parameters: {@code Long[]} is sent as {@code bigint[]}, {@code Integer[]} as
     * {@code integer[]}, {@code String[]} as {@code text[]}, {@code Boolean[]} as {@code boolean[]}, {@code Instant}
     * as timestamptz.
     */
    public final class Statement {

        private final Positional positional;
        private final Map<String, Object> values = new HashMap<>();

        private Statement(Positional positional) {
            this.positional = positional;
        }

        public Statement set(String name, Object value) {
            values.put(name, value);
            return this;
        }

        public <T> Query<T> reading(RowReader<T> reader) {
            return new Query<>(this, reader);
        }

        public <T> List<T> list(RowReader<T> reader) {
            RoundTrip alone = new RoundTrip();
            Rows<T> rows = alone.add(reading(reader));
            alone.send();
            return rows.all();
        }

        /** Runs an {@code INSERT}, {@code UPDATE} or {@code DELETE} alone and returns how many rows it changed. */
        public int update() {
            try (Connection connection = dataSource.getConnection();
                    PreparedStatement statement = prepare(connection, List.of(this))) {
                return statement.executeUpdate();
            } catch (SQLException e) {
                throw new PersistenceException("statement failed: " + positional.sql(), e);
            }
        }
    }

    /**
     * Queries sent together and run one after another, each a statement of its own that sees what was committed
     * before it began; if one fails, none after it runs. Every round trip to PostgreSQL costs both sides a wake-up,
     * and on two shared cores those were the largest single cost of an add to cart.
     */
    public RoundTrip roundTrip() {
        return new RoundTrip();
    }

    /** The queries of one {@link RoundTrip}, in the order they are added. */
    public final class RoundTrip {

        private final List<Rows<?>> queued = new ArrayList<>();

        private RoundTrip() {
        }

        /** Queues {@code query}; its rows are there once the round trip is sent. */
        public <T> Rows<T> add(Query<T> query) {
            Rows<T> rows = new Rows<>(query);
            queued.add(rows);
            return rows;
        }

        /** Queues a statement whose rows, if any, nobody reads: an update. */
        public void add(Statement update) {
            add(update.reading(row -> null));
        }

        public void send() {
            sendAfter(null);
        }

        /** Sends {@code first} (when not null), then the queued queries, in one round trip. */
        public void sendAfter(Statement first) {
            List<Statement> statements = new ArrayList<>();
            if (first != null) {
                statements.add(first);
            }
            queued.forEach(rows -> statements.add(rows.query.statement()));
            if (statements.isEmpty()) {
                return;
            }
            // Inside a JTA transaction Agroal hands out the transaction's own connection, the one Hibernate uses.
            try (Connection connection = dataSource.getConnection();
                    PreparedStatement statement = prepare(connection, statements)) {
                statement.execute();
                if (first != null) {
                    statement.getMoreResults();
                }
                for (Rows<?> rows : queued) {
                    rows.read(statement.getResultSet());
                    statement.getMoreResults();
                }
            } catch (SQLException e) {
                throw new PersistenceException("statements failed: "
                        + statements.stream().map(s -> s.positional.sql()).collect(Collectors.joining("; ")), e);
            }
        }
    }

    /** The rows one query of a {@link RoundTrip} returned. */
    public static final class Rows<T> {

        private final Query<T> query;
        private List<T> rows;

        private Rows(Query<T> query) {
            this.query = query;
        }

        /** {@code null}: the statement returned an update count, not rows. */
        private void read(ResultSet result) throws SQLException {
            rows = result == null ? List.of() : Jdbc.rows(result, query.reader());
        }

        public List<T> all() {
            if (rows == null) {
                throw new IllegalStateException("the round trip was not sent yet");
            }
            return rows;
        }

        public Optional<T> first() {
            return all().stream().findFirst();
        }
    }

    /** One JDBC statement for {@code statements}: the driver sends them together and runs them one after another. */
    private static PreparedStatement prepare(Connection connection, List<Statement> statements) throws SQLException {
        String sql = statements.stream().map(statement -> statement.positional.sql()).collect(Collectors.joining("; "));
        PreparedStatement prepared = connection.prepareStatement(sql);
        try {
            int index = 1;
            for (Statement statement : statements) {
                for (String name : statement.positional.names()) {
                    if (!statement.values.containsKey(name)) {
                        throw new IllegalArgumentException("no value for :" + name);
                    }
                    bind(connection, prepared, index++, statement.values.get(name));
                }
            }
            return prepared;
        } catch (SQLException | RuntimeException e) {
            prepared.close();
            throw e;
        }
    }

    private static <T> List<T> rows(ResultSet rows, RowReader<T> reader) throws SQLException {
        try (rows) {
            List<T> result = new ArrayList<>();
            while (rows.next()) {
                result.add(reader.read(rows));
            }
            return result;
        }
    }

    private static void bind(Connection connection, PreparedStatement statement, int index, Object value)
            throws SQLException {
        if (value instanceof Long[] numbers) {
            statement.setArray(index, connection.createArrayOf("bigint", numbers));
        } else if (value instanceof Integer[] numbers) {
            statement.setArray(index, connection.createArrayOf("integer", numbers));
        } else if (value instanceof String[] texts) {
            statement.setArray(index, connection.createArrayOf("text", texts));
        } else if (value instanceof Boolean[] flags) {
            statement.setArray(index, connection.createArrayOf("boolean", flags));
        } else if (value instanceof Instant instant) {
            statement.setObject(index, OffsetDateTime.ofInstant(instant, ZoneOffset.UTC));
        } else {
            statement.setObject(index, value);
        }
    }

    /** A {@code bigint[]} column as ids; nulls (from an outer join) are left out. */
    public static List<Long> longs(ResultSet row, int column) throws SQLException {
        List<Long> numbers = new ArrayList<>();
        java.sql.Array array = row.getArray(column);
        if (array != null) {
            for (Object number : (Object[]) array.getArray()) {
                if (number != null) {
                    numbers.add(((Number) number).longValue());
                }
            }
        }
        return numbers;
    }

    /** A nullable integer column. */
    public static Integer integer(ResultSet row, int column) throws SQLException {
        int value = row.getInt(column);
        return row.wasNull() ? null : value;
    }

    /** A nullable bigint column. */
    public static Long nullableLong(ResultSet row, int column) throws SQLException {
        long value = row.getLong(column);
        return row.wasNull() ? null : value;
    }

    public static Instant instant(ResultSet row, int column) throws SQLException {
        OffsetDateTime time = row.getObject(column, OffsetDateTime.class);
        return time == null ? null : time.toInstant();
    }
}
