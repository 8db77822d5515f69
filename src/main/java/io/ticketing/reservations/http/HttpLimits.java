package io.ticketing.reservations.http;

import java.util.Map;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.ticketing.reservations.problem.ApiException;
import io.ticketing.reservations.problem.ProblemMapper;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * The HTTP layer's own refusals as {@code application/problem+json} (contract section 4): a URI, headers or a body
 * past the limits below. Vert.x refuses what passes its decoder limits with an empty body before any handler
 * runs, so those are set well above these ({@code quarkus.http.limits.*} in application.properties) and the
 * service's limits are checked here, first among the routes.
 */
@Singleton
public class HttpLimits {

    static final int MAX_URI_LENGTH = 8 * 1024;
    static final int MAX_HEADERS_SIZE = 16 * 1024;
    /** The largest body: a plan of 10,000 seats fits with room to spare. */
    static final long MAX_BODY_SIZE = 10 * 1024 * 1024;

    private final ObjectMapper json;

    HttpLimits(ObjectMapper json) {
        this.json = json;
    }

    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE + 1).handler(this::check);
        router.route().order(Integer.MIN_VALUE).failureHandler(this::bodyTooLarge);
    }

    private void check(RoutingContext context) {
        HttpServerRequest request = context.request();
        if (request.uri().length() > MAX_URI_LENGTH) {
            refuse(context, 414, "uri_too_long", "URI Too Long",
                    "The request URI is longer than " + MAX_URI_LENGTH + " characters.");
        } else if (headersSize(request) > MAX_HEADERS_SIZE) {
            refuse(context, 431, "headers_too_large", "Request Header Fields Too Large",
                    "The request's headers are larger than " + MAX_HEADERS_SIZE + " bytes.");
        } else if (declaredBodySize(request) > MAX_BODY_SIZE) {
            refuseBody(context);
        } else {
            context.next();
        }
    }

    /** A chunked body that grows past the limit is cut off by Quarkus' body handler, which fails with 413. */
    private void bodyTooLarge(RoutingContext context) {
        if (context.statusCode() == 413 && !context.response().headWritten()) {
            refuseBody(context);
        } else {
            context.next();
        }
    }

    private void refuseBody(RoutingContext context) {
        // The rest of the body is not read: close the connection rather than leave it unusable.
        context.response().putHeader(HttpHeaders.CONNECTION, "close");
        refuse(context, 413, "payload_too_large", "Content Too Large",
                "The request body is larger than " + MAX_BODY_SIZE + " bytes.");
    }

    private static int headersSize(HttpServerRequest request) {
        int size = 0;
        for (Map.Entry<String, String> header : request.headers()) {
            size += header.getKey().length() + header.getValue().length() + 4;
        }
        return size;
    }

    private static long declaredBodySize(HttpServerRequest request) {
        String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
        try {
            return length == null ? 0 : Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private void refuse(RoutingContext context, int status, String code, String title, String detail) {
        ProblemMapper.respond(context, json, new ApiException(status, code, title, detail));
    }
}
