package io.ticketing.reservations.reservation;

import static io.ticketing.reservations.reservation.PropertyCalls.call;
import static io.ticketing.reservations.reservation.PropertyCalls.patch;
import static io.ticketing.reservations.reservation.PropertyEvent.PATH;
import static io.ticketing.reservations.support.Api.admin;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.restassured.response.Response;

/**
 * The admin's edits, every field of every resource that counts: a voucher's {@code max_usages},
 * {@code block_quota} and {@code valid_until}, and vouchers deleted and made again of any kind (of no scope, an
 * item, a quota, a date, a seat); a quota's size (to and from unlimited) and items; the box office's allotments; an item and a date taken off
 * sale and put back; seats blocked and freed, and kept for the box office. PATCHes that name no field that counts must change nothing.
 */
final class AdminSteps {

    private final Random random;

    AdminSteps(Random random) {
        this.random = random;
    }

    String voucher(PropertyEvent event) {
        String code = event.someVoucher();
        int dice = random.nextInt(6);
        if (dice == 0) {
            Response deleted = admin().delete(PATH + "/vouchers/{code}", event.slug, code);
            if (deleted.statusCode() == 204 || deleted.statusCode() == 404) {
                Map<String, Object> voucher = newVoucher(event, code);
                return call("delete voucher " + code + ", then " + voucher,
                        admin().body(voucher).post(PATH + "/vouchers", event.slug));
            }
            return call("delete voucher " + code, deleted);
        }
        Map<String, Object> changes = new HashMap<>();
        switch (dice) {
            case 1 -> changes.put("max_usages", 1 + random.nextInt(3));
            case 2, 3 -> changes.put("block_quota", !event.blocks(code));
            case 4 -> changes.put("valid_until", random.nextBoolean() ? null : "2099-01-01T00:00:00Z");
            default -> {
                // Names none of the fields that count: all of them must stay as they are.
            }
        }
        return patch(event.slug, "voucher " + code, PATH + "/vouchers/" + code, changes);
    }

    /** A voucher of one to three uses, of no scope, an item, a quota or a seat, of no date or one. */
    private Map<String, Object> newVoucher(PropertyEvent event, String code) {
        Map<String, Object> voucher = new HashMap<>(Map.of("code", code, "max_usages", 1 + random.nextInt(3)));
        int scope = random.nextInt(4);
        switch (scope) {
            case 0 -> voucher.put("item_id", event.any(event.items));
            case 1 -> voucher.put("quota_id", event.any(event.quotas));
            case 2 -> {
                PropertyEvent.Seated seats = event.any(event.seated);
                voucher.put("seat_guid", event.anySeat(seats));
            }
            default -> {
                // Of no scope: it unlocks any item and can block nothing.
            }
        }
        if (scope < 2) {
            voucher.put("block_quota", random.nextBoolean());
        }
        if (event.dated() && (scope == 2 || random.nextBoolean())) {
            voucher.put("date_id", event.any(event.dates));
        }
        return voucher;
    }

    /** Its size (to unlimited a fourth of the time), its items, its name only, or nothing. */
    String quota(PropertyEvent event, long quota) {
        Map<String, Object> changes = new HashMap<>();
        switch (random.nextInt(4)) {
            case 0, 1 -> changes.put("size", random.nextInt(4) == 0 ? null : random.nextInt(5));
            case 2 -> changes.put("items", event.items.stream().filter(item -> random.nextInt(3) > 0).toList());
            default -> changes.put("name", "renamed " + random.nextInt(100));
        }
        return patch(event.slug, "quota " + quota, PATH + "/quotas/" + quota, changes);
    }

    /**
     * An allotment of the quota (section 12) for the box office, or a third of the time for the web shop: made when the
     * channel has none (a third of the time with a release time to come), else grown or shrunk, released (a release
     * time passed), kept again, or deleted. Making or keeping more is judged by the one rule: refused where what is
     * left for everyone cannot cover it, never for its channel.
     */
    String allotment(PropertyEvent event, long quota) {
        event.boxOffice();
        String channel = random.nextInt(3) == 0 ? PropertyEvent.WEB : PropertyEvent.BOX_OFFICE;
        String path = PATH + "/quotas/" + quota + "/allotments";
        List<Map<String, Object>> made = admin().get(path, event.slug).then().statusCode(200).extract().jsonPath()
                .getList("data");
        Map<String, Object> mine = made.stream().filter(allotment -> channel.equals(allotment.get("channel")))
                .findFirst().orElse(null);
        if (mine == null) {
            Map<String, Object> allotment = new HashMap<>(Map.of("channel", channel, "size", random.nextInt(4)));
            if (random.nextInt(3) == 0) {
                allotment.put("release_at", "2099-01-01T00:00:00Z");
            }
            Response response = admin().body(allotment).post(path, event.slug);
            assertThat(response.statusCode()).as("an allotment %s answered %s", allotment, response.asString())
                    .isNotEqualTo(400);
            return call("allotment " + allotment + " of quota " + quota, response);
        }
        String one = path + "/" + mine.get("id");
        Map<String, Object> changes = new HashMap<>();
        switch (random.nextInt(5)) {
            case 0 -> {
                return call("delete the " + channel + " allotment of quota " + quota, admin().delete(one, event.slug));
            }
            case 1, 2 -> changes.put("size", random.nextInt(4));
            case 3 -> changes.put("release_at", "2000-01-01T00:00:00Z");
            default -> changes.put("release_at", null);
        }
        return patch(event.slug, "the " + channel + " allotment of quota " + quota, one, changes);
    }

    /**
     * An item off sale or back on (its holds and sales stay, and entries of its waiting list hold nothing back), or
     * limited to the box office or sold everywhere again (section 12: a limit takes nothing of a quota).
     */
    String item(PropertyEvent event) {
        long item = event.any(event.items);
        Map<String, Object> changes = new HashMap<>();
        if (random.nextInt(4) == 0) {
            changes.put("channels", random.nextBoolean() ? null : List.of(PropertyEvent.BOX_OFFICE));
        } else {
            changes.put("active", random.nextInt(3) > 0);
        }
        return patch(event.slug, "item " + item, PATH + "/items/" + item, changes);
    }

    /** A date off sale or back on; in an event without dates, a seat instead. */
    String date(PropertyEvent event) {
        if (!event.dated()) {
            return seat(event);
        }
        long date = event.any(event.dates);
        return patch(event.slug, "date " + date, PATH + "/dates/" + date, Map.of("active", random.nextInt(3) > 0));
    }

    String seat(PropertyEvent event) {
        String guid = event.anySeat(event.any(event.seated));
        String path = PATH + "/seats/" + guid + (event.dated() ? "?date_id=" + event.any(event.dates) : "");
        Map<String, Object> changes = new HashMap<>();
        if (random.nextInt(4) == 0) {
            // Kept for the box office or sold everywhere again (section 12): it takes nothing of a quota.
            event.boxOffice();
            changes.put("channels", random.nextBoolean() ? null : List.of(PropertyEvent.BOX_OFFICE));
        } else {
            changes.put("blocked", random.nextBoolean());
        }
        return patch(event.slug, "seat " + guid, path, changes);
    }
}
