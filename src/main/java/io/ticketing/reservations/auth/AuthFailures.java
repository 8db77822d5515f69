package io.ticketing.reservations.auth;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import io.quarkus.vertx.http.runtime.security.HttpSecurityRecorder.DefaultAuthFailureHandler;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.quarkus.vertx.http.runtime.security.SecurityHandlerPriorities;
import io.vertx.ext.web.Router;

/**
 * Takes Quarkus's authentication failure handler off every request before Quarkus REST's filter replaces it. That
 * filter, right after authentication, first names the request's route template for the metrics by building a new
 * table of every resource's routes and matching the path in it: about 3 % of the service's CPU in scenario 2 (a
 * flight recording, docs/benchmark-history.md), on every request, for a handler no request here uses. Authentication is
 * lazy ({@code quarkus.http.auth.proactive=false}): the identity is read only inside the resources, and Quarkus REST
 * takes its handler off again when a resource starts, so a refused token is a failure of the resource, which
 * {@code ProblemMapper} answers (401, a problem), under the template the resource's handler chain names. No route
 * outside the resources reads the identity: the metrics check their token themselves ({@link MetricsAccess}). What the
 * HTTP layer refuses before a resource matches (a dot segment, a body that is not JSON) now counts as
 * {@code UNMATCHED} ({@code http/RouteTemplatesOnly}), as a path that matches no resource always has.
 *
 * <p>This route shares the order of Quarkus REST's filter and runs before it because routes observed here are added
 * before the HTTP filters ({@code VertxHttpRecorder.finalizeRouter}); {@code AuthFailuresTest} fails if a Quarkus
 * release changes that.
 */
@Singleton
public class AuthFailures {

    /** The place of Quarkus REST's filter: the first after authentication. */
    private static final int ORDER = -(SecurityHandlerPriorities.AUTHENTICATION - 1);

    void install(@Observes Router router) {
        router.route().order(ORDER).handler(context -> {
            if (context.get(QuarkusHttpUser.AUTH_FAILURE_HANDLER) instanceof DefaultAuthFailureHandler) {
                context.remove(QuarkusHttpUser.AUTH_FAILURE_HANDLER);
            }
            context.next();
        });
    }
}
