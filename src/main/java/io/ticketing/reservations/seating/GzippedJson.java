package io.ticketing.reservations.seating;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.zip.GZIPOutputStream;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A seating plan's answer compressed with gzip for a client that accepts it: 10,000 seats are 1.6 MB of JSON and
 * 67 KB compressed. Done here, for this one answer, rather than with Quarkus' HTTP compression, which once on sends
 * every response of the service through the compressor's checks (and a {@code Content-Encoding} header), the cart's
 * hot path included.
 */
@ApplicationScoped
class GzippedJson {

    private final ObjectMapper json;

    GzippedJson(ObjectMapper json) {
        this.json = json;
    }

    /** Whether {@code Accept-Encoding} names gzip (or any coding) with a weight above 0 (RFC 9110, section 12.5.3). */
    static boolean accepted(String acceptEncoding) {
        if (acceptEncoding == null) {
            return false;
        }
        for (String coding : acceptEncoding.toLowerCase(Locale.ROOT).split(",")) {
            String[] parts = coding.split(";");
            String name = parts[0].trim();
            boolean refused = parts.length > 1 && parts[1].replace(" ", "").matches("q=0(\\.0*)?");
            if ((name.equals("gzip") || name.equals("*")) && !refused) {
                return true;
            }
        }
        return false;
    }

    /** A 200 whose body is {@code value} as JSON, compressed. */
    Response.ResponseBuilder of(Object value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(bytes)) {
            json.writeValue(gzip, value);
        } catch (IOException e) {
            throw new UncheckedIOException("could not compress a seating plan", e);
        }
        return Response.ok(bytes.toByteArray(), MediaType.APPLICATION_JSON_TYPE)
                .header(HttpHeaders.CONTENT_ENCODING, "gzip").header(HttpHeaders.VARY, HttpHeaders.ACCEPT_ENCODING);
    }
}
