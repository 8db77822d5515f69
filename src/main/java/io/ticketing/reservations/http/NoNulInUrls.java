package io.ticketing.reservations.http;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.UriInfo;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import io.ticketing.reservations.problem.ValidationException;

/**
 * {@code %00} in a path or query parameter: PostgreSQL's text cannot hold it, and the lookup would fail in the
 * driver with a 500. Checked before matching, so it is a 400 on every endpoint, known or not, and on the event
 * loop, as every filter before the non-blocking ones must be (auth/BearerTokenFilter).
 */
public class NoNulInUrls {

    @ServerRequestFilter(preMatching = true, nonBlocking = true)
    public void refuseNul(ContainerRequestContext request) {
        UriInfo uri = request.getUriInfo();
        if (uri.getPath(true).indexOf('\0') >= 0) {
            throw new ValidationException("path", "must not contain NUL (%00)");
        }
        uri.getQueryParameters().forEach((name, values) -> {
            if (name.indexOf('\0') >= 0 || values.stream().anyMatch(value -> value.indexOf('\0') >= 0)) {
                throw new ValidationException(name, "must not contain NUL (%00)");
            }
        });
    }
}
