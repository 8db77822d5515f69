package io.ticketing.reservations.admin;

import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newVoucher;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

/**
 * A PATCH changes exactly the fields it names, as a JSON merge patch (contract section 4): an absent field stays as
 * it is, {@code null} removes it where the contract allows null. Until issue 25 an absent nullable field was read
 * as null: a quota PATCHed with {@code {}} became unlimited and oversold, a voucher lost its deadline.
 */
@QuarkusTest
class MergePatchTest {

    private static final String EVENT = "/api/v1/events/{event}";

    @Test
    void aQuotaKeepsItsSizeUnlessAPatchNamesIt() {
        String event = newEvent("patch-quota");
        long item = admin().body(Map.of("name", "Ticket", "price", "10")).post(EVENT + "/items", event).then()
                .statusCode(201).extract().jsonPath().getLong("id");
        String quota = EVENT + "/quotas/" + newQuota(event, 10, List.of(item));
        assertThat(patch(event, quota, Map.of()).getInt("size")).isEqualTo(10);
        assertThat(patch(event, quota, Map.of("name", "Renamed")).getInt("size")).isEqualTo(10);
        assertThat(patch(event, quota, nulled("size")).<Integer>get("size")).isNull();
    }

    @Test
    void aVoucherKeepsItsDeadlineUnlessAPatchNamesIt() {
        String event = newEvent("patch-voucher");
        newVoucher(event, Map.of("code", "LATER", "max_usages", 2, "valid_until", "2099-01-01T00:00:00Z"));
        String voucher = EVENT + "/vouchers/LATER";
        assertThat(patch(event, voucher, Map.of("max_usages", 3)).getString("valid_until"))
                .isEqualTo("2099-01-01T00:00:00Z");
        assertThat(patch(event, voucher, Map.of()).getString("valid_until")).isEqualTo("2099-01-01T00:00:00Z");
        assertThat(patch(event, voucher, nulled("valid_until")).getString("valid_until")).isNull();
    }

    @Test
    void anItemAndAnEventKeepTheirLimitsWhenRenamed() {
        String event = newEvent("patch-limits");
        String item = EVENT + "/items/" + admin().body(Map.of("name", "Ticket", "price", "10", "max_per_buyer", 4))
                .post(EVENT + "/items", event).then().statusCode(201).extract().jsonPath().getLong("id");
        assertThat(patch(event, item, Map.of("name", "Renamed")).getInt("max_per_buyer")).isEqualTo(4);
        assertThat(patch(event, item, nulled("max_per_buyer")).<Integer>get("max_per_buyer")).isNull();

        patch(event, EVENT, Map.of("max_per_buyer", 6));
        assertThat(patch(event, EVENT, Map.of("name", "Renamed")).getInt("max_per_buyer")).isEqualTo(6);
        assertThat(patch(event, EVENT, Map.of()).getInt("max_per_buyer")).isEqualTo(6);
        assertThat(patch(event, EVENT, nulled("max_per_buyer")).<Integer>get("max_per_buyer")).isNull();
    }

    private static Map<String, Object> nulled(String field) {
        Map<String, Object> changes = new HashMap<>();
        changes.put(field, null);
        return changes;
    }

    /** The resource as it is after the PATCH, read again with a GET. */
    private static JsonPath patch(String event, String path, Map<String, Object> changes) {
        String etag = admin().get(path, event).then().statusCode(200).extract().header("ETag");
        admin().header("If-Match", etag).body(changes).patch(path, event).then().statusCode(200);
        return admin().get(path, event).then().statusCode(200).extract().jsonPath();
    }
}
