package io.ticketing.reservations.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The segments the filter refuses, and the ones it must let through to routing (StrictInputTest sends the first). */
class NoDotSegmentsTest {

    @ParameterizedTest
    @ValueSource(strings = {".", "..", "%2e", "%2E", "%2e%2E", ".%2e", "%2e."})
    void shouldFindDotSegments(String segment) {
        assertThat(NoDotSegments.hasDotSegment("/api/v1/events/x/" + segment + "/y")).isTrue();
        assertThat(NoDotSegments.hasDotSegment("/api/v1/events/x/" + segment)).isTrue();
        assertThat(NoDotSegments.hasDotSegment(segment + "/api")).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "...", "%2e%2e%2e", "a.", ".a", "..a", "%2ea", "%2", "%2f", "v1.2", "%", "%2e%2"})
    void shouldLetOtherSegmentsThrough(String segment) {
        assertThat(NoDotSegments.hasDotSegment("/api/v1/events/x/" + segment + "/y")).isFalse();
        assertThat(NoDotSegments.hasDotSegment("/api/v1/events/x/" + segment)).isFalse();
    }
}
