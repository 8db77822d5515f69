package io.ticketing.reservations.auth;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.ProblemMapper;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Metrics on the API port (every build but the image's, which serves them on the management port only Prometheus
 * reaches) answer the platform's admin tokens only (contract section 11): they count every organizer's events. A
 * route before the metrics' own, and not an HTTP permission, which would put an authorizer on the path of every
 * request for the sake of this one.
 */
@Singleton
class MetricsAccess {

    private static final String METRICS = "/q/metrics*";

    private final BearerTokens tokens;
    private final ObjectMapper json;

    MetricsAccess(BearerTokens tokens, ObjectMapper json) {
        this.tokens = tokens;
        this.json = json;
    }

    void install(@Observes Router router) {
        router.route(METRICS).order(Integer.MIN_VALUE + 2).handler(this::check);
    }

    private void check(RoutingContext context) {
        tokens.rolesOf(context.request().getHeader(HttpHeaders.AUTHORIZATION)).ifPresentOrElse(roles -> {
            if (roles.contains(Roles.PLATFORM)) {
                context.next();
            } else {
                ProblemMapper.respond(context, json, new ApiException(403, "forbidden", "Forbidden",
                        "Metrics answer the platform's admin tokens only."));
            }
        }, () -> ProblemMapper.respond(context, json, new ApiException(401, "unauthorized", "Unauthorized",
                "Metrics need the platform's admin token.").header("WWW-Authenticate", "Bearer realm=\"inventory\"")));
    }
}
