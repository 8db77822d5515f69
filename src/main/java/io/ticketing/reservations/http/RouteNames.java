package io.ticketing.reservations.http;

import io.vertx.core.http.impl.HttpServerRequestInternal;
import io.vertx.ext.web.RoutingContext;

/**
 * How logs and traces name a request's path (contract section 6): a cart id, an order code, an entry id, a queue
 * ticket or a token in a path is a capability, so they name the route ({@code /api/v1/events/{event}/carts/{cart}})
 * and never the values. Quarkus REST keeps the matched route's template on the request's context; a request refused
 * before it matched a route (a bad token, a path no route has) is named by its first segment under {@code /api/v1}
 * only, as metrics name it {@code UNMATCHED} ({@link RouteTemplatesOnly}).
 */
public final class RouteNames {

    /** The key under which Quarkus REST's observability handler keeps the matched template on the request's context. */
    private static final String TEMPLATE = "UrlPathTemplate";
    private static final String API = "/api/v1/";

    private RouteNames() {
    }

    /** The request's route as it may be written down: its template, or {@link #withoutValues} of its path. */
    public static String of(RoutingContext context) {
        Object template = ((HttpServerRequestInternal) context.request()).context().getLocal(TEMPLATE);
        return template instanceof String route ? route : withoutValues(context.request().path());
    }

    /**
     * A path no route matched, as it may be written down: under {@code /api/v1/} its first segment and an ellipsis
     * for the rest ({@code /api/v1/events/…}), which may hold any value; elsewhere (health, metrics, the OpenAPI
     * document, the checkout page's files) as it is, since nothing there is a capability.
     */
    public static String withoutValues(String path) {
        if (path == null || !path.startsWith(API)) {
            return path;
        }
        int next = path.indexOf('/', API.length());
        return next < 0 || next == path.length() - 1 ? path : path.substring(0, next) + "/…";
    }
}
