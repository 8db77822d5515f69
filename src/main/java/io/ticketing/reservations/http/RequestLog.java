package io.ticketing.reservations.http;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;
import org.jboss.logging.MDC;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Every request gets an id: the caller's {@code X-Request-Id} when it is a plain token (a proxy's or a
 * storefront's, so that one id follows a purchase across services), a new UUID otherwise. The response echoes it,
 * every log line written while the request runs carries it in the MDC as {@code request_id} (Quarkus keeps the
 * MDC in the request's Vert.x context, on whichever thread serves it), and one line a request says how it ended, naming
 * its route rather than its path ({@link RouteNames}).
 * Runs first among the routes, so that even the HTTP layer's own refusals carry the id.
 */
@Singleton
public class RequestLog {

    public static final String HEADER = "X-Request-Id";
    public static final String MDC_KEY = "request_id";

    private static final Logger LOG = Logger.getLogger(RequestLog.class);
    /** What a caller may send: no spaces, quotes or control characters that could forge a log line. */
    private static final Pattern PLAIN_TOKEN = Pattern.compile("[A-Za-z0-9._:/+=@-]{1,128}");

    private final boolean logRequests;

    RequestLog(@ConfigProperty(name = "http.request-log", defaultValue = "true") boolean logRequests) {
        this.logRequests = logRequests;
    }

    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).handler(this::identify);
    }

    private void identify(RoutingContext context) {
        if (context.get(MDC_KEY) != null) { // rerouted within the service (as the Swagger UI is): one request
            context.next();
            return;
        }
        HttpServerRequest request = context.request();
        String given = request.getHeader(HEADER);
        String id = given != null && PLAIN_TOKEN.matcher(given).matches() ? given : newId();
        context.put(MDC_KEY, id);
        MDC.put(MDC_KEY, id);
        context.response().putHeader(HEADER, id);
        if (logRequests) {
            long started = System.nanoTime();
            context.addEndHandler(ended -> logEnd(id, request.method().name(), RouteNames.of(context),
                    context.response().getStatusCode(), started));
        }
        context.next();
    }

    /**
     * A random (version 4) UUID from the thread's own generator: an id needs to be unique, not unpredictable, and
     * {@link UUID#randomUUID()} would have every request take the one SecureRandom's lock on the event loop.
     */
    private static String newId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = random.nextLong() & ~0xF000L | 0x4000L;
        long low = random.nextLong() & ~0xC000000000000000L | 0x8000000000000000L;
        return new UUID(high, low).toString();
    }

    /** The request's line: its route, never the values in its path (contract section 6: {@link RouteNames}). */
    private static void logEnd(String id, String method, String route, int status, long started) {
        Object previous = MDC.get(MDC_KEY);
        MDC.put(MDC_KEY, id);
        try {
            LOG.infof("%s %s %d %d ms", method, route, status, (System.nanoTime() - started) / 1_000_000);
        } finally {
            if (previous == null) {
                MDC.remove(MDC_KEY);
            } else {
                MDC.put(MDC_KEY, previous);
            }
        }
    }
}
