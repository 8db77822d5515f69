package io.ticketing.reservations.support;

import io.quarkus.test.common.QuarkusTestResource;

/** Registers {@link PostgresResource} for every {@code @QuarkusTest} in the suite. */
@QuarkusTestResource(PostgresResource.class)
public final class TestDatabase {

    private TestDatabase() {
    }
}
