package io.ticketing.reservations.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

import io.restassured.RestAssured;
import io.ticketing.reservations.support.Crowd.Outcome;

/**
 * JSON POSTs to the service under test through the JDK's client, for the loops that send thousands of requests. REST
 * Assured builds each request through Groovy's dynamic call sites: sixteen threads of door scans spent two thirds of
 * their test's time there, in the test's own JVM, on the two cores the service needed. Tests that send a handful keep
 * REST Assured. These requests skip {@link ServedDocument}'s check: the REST Assured tests of the same operations make
 * it.
 */
public final class PlainHttp {

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private PlainHttp() {
    }

    /** A POST of {@code body} as JSON with {@code authorization} (scheme included) to the service's {@code path}. */
    public static Outcome post(String authorization, String path, Map<String, Object> body) {
        try {
            HttpRequest request = HttpRequest
                    .newBuilder(URI.create(RestAssured.baseURI + ":" + RestAssured.port + path))
                    .header("Authorization", authorization).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(Json.bytes(body))).build();
            HttpResponse<String> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
            return Outcome.of(response.statusCode(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
