package io.ticketing.reservations.http;

import java.util.regex.Pattern;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.MeterFilter;

/**
 * HTTP metrics name a route by its template ({@code /api/v1/events/{event}/carts/{cart}}), never by the path a client
 * sent: a request refused before it matched a route (a bad token, a malformed path) was recorded under its raw path,
 * which can hold a buyer's cart id or order code (their credentials), and every new path made a new series. Such a
 * path becomes {@value #UNMATCHED}.
 */
@Singleton
public class RouteTemplatesOnly {

    static final String UNMATCHED = "UNMATCHED";
    /** The routes without a path parameter, and Quarkus' own under /q. */
    private static final Pattern PLAIN_ROUTES = Pattern.compile("/api/v1/(events|organizers)|/q/.*|/");

    @Produces
    @Singleton
    MeterFilter routeTemplatesOnly() {
        return new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                String uri = id.getTag("uri");
                if (!id.getName().startsWith("http.server") || uri == null || uri.contains("{")
                        || uri.equals("NOT_FOUND") || uri.equals("REDIRECTION") || uri.equals("root")
                        || PLAIN_ROUTES.matcher(uri).matches()) {
                    return id;
                }
                return id.withTag(Tag.of("uri", UNMATCHED));
            }
        };
    }
}
