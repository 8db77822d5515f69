package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.support.Api.admin;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import io.restassured.response.Response;
import io.ticketing.reservations.support.Json;

/** How the property test's steps call the service and say what it answered; a 500 is a defect, never a step. */
final class PropertyCalls {

    private PropertyCalls() {
    }

    /** What was asked and answered, e.g. {@code checkout: 409 quota_exhausted}; fails on a server error. */
    static String call(String what, Response response) {
        requireNoServerError(what, response.statusCode(), response.asString());
        String code = response.statusCode() >= 400 ? " " + Json.text(response, "code") : "";
        return what + ": " + response.statusCode() + code;
    }

    /** A PATCH of the resource at {@code path} on its current version; a resource gone is a step too. */
    static String patch(String event, String what, String path, Map<String, Object> changes) {
        Response current = admin().get(path, event);
        if (current.statusCode() == 404) {
            return call("patch " + what + " that is gone", current);
        }
        String etag = current.then().statusCode(200).extract().header("ETag");
        return call("patch " + what + " " + changes, admin().header("If-Match", etag).body(changes).patch(path, event));
    }

    static void requireNoServerError(String what, int status, String body) {
        assertThat(status).as("%s answered %s", what, body).isLessThan(500);
    }
}
