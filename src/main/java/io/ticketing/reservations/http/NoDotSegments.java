package io.ticketing.reservations.http;

import java.util.regex.Pattern;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import io.ticketing.reservations.problem.ValidationException;
import io.vertx.core.http.HttpServerRequest;

/**
 * {@code .} and {@code ..} path segments, raw or percent-encoded: Vert.x removes them before routing, so
 * {@code DELETE .../carts/{cart}/positions/%2e%2e} matched {@code DELETE .../carts/{cart}} and deleted the whole
 * cart. No resource is named like that, so a path holding one is refused with 400 before matching, on the raw path
 * as the client sent it, and on the event loop like {@link NoNulInUrls}.
 */
public class NoDotSegments {

    private static final Pattern DOT_SEGMENT = Pattern.compile("(?i)(\\.|%2e){1,2}");

    @ServerRequestFilter(preMatching = true, nonBlocking = true)
    public void refuseDotSegments(HttpServerRequest request) {
        for (String segment : request.path().split("/")) {
            if (DOT_SEGMENT.matcher(segment).matches()) {
                throw new ValidationException("path", "must not contain '.' or '..' segments, raw or as %2e");
            }
        }
    }
}
