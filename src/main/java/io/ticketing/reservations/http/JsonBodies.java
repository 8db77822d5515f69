package io.ticketing.reservations.http;

import java.util.Locale;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;

import org.jboss.resteasy.reactive.common.util.EmptyInputStream;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import io.ticketing.reservations.problem.ApiException;

/**
 * A request body is JSON, declared as {@code application/json} or a {@code +json} type, or it is refused with 415
 * (contract section 4) before anything reads it. JAX-RS alone would hand a text body to an operation that also takes
 * none (opening a cart), whose one string field then held the whole body, NUL bytes and all. Checked before
 * matching, so that it holds for every operation, and on the event loop, like every filter before the non-blocking
 * ones (as http/NoNulInUrls). A request without a body may declare any type, and is read as none.
 */
public class JsonBodies {

    @ServerRequestFilter(preMatching = true, nonBlocking = true)
    public void refuseOtherBodies(ContainerRequestContext request) {
        boolean chunked = request.getHeaderString("Transfer-Encoding") != null;
        boolean body = request.getLength() > 0 || chunked;
        if (request.getLength() == 0 && !chunked) {
            // None, said at once: Quarkus' JSON reader takes a request's own empty stream for no body only after
            // Jackson has built and thrown an exception for it (1 % of the service's CPU where carts are opened).
            request.setEntityStream(EmptyInputStream.INSTANCE);
        } else if (body && !isJson(request.getHeaderString(HttpHeaders.CONTENT_TYPE))) {
            throw new ApiException(415, "unsupported_media_type", "Unsupported Media Type",
                    "A request body must be JSON, sent as 'Content-Type: application/json'.");
        }
    }

    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        String essence = contentType.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        return essence.equals("application/json") || essence.endsWith("+json");
    }
}
