package io.ticketing.reservations.bench;

import java.util.StringJoiner;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Sets up the benchmark's events through the admin API, untimed. */
final class Admin {

    private static final Pattern ID = Pattern.compile("\"id\":(\\d+)");

    private final Http http;
    private final String base;
    private final String token;
    private int events;

    Admin(String base, String token) {
        this.http = new Http(base, token);
        this.base = base;
        this.token = token;
    }

    /**
     * For a build with {@code organizer} tokens ({@link Build}): an organizer of its own and its admin and storefront
     * API tokens (contract section 11), which the run then uses instead of the configured ones; else those. Returns
     * {admin, storefront}.
     */
    static String[] tokens(String base, boolean organizer) throws Exception {
        if (!organizer) {
            return new String[]{Service.ADMIN, Service.STOREFRONT};
        }
        Admin platform = new Admin(base, Service.ADMIN);
        String slug = "bench-" + System.nanoTime();
        platform.post("/api/v1/organizers", "{\"slug\":\"" + slug + "\",\"name\":\"Bench\"}");
        Pattern secret = Pattern.compile("\"token\":\"([^\"]+)\"");
        String[] tokens = new String[2];
        String[] scopes = {"admin", "storefront"};
        for (int i = 0; i < 2; i++) {
            Matcher token = secret.matcher(platform.post("/api/v1/organizers/" + slug + "/tokens",
                    "{\"name\":\"bench\",\"scope\":\"" + scopes[i] + "\"}"));
            if (!token.find()) {
                throw new IllegalStateException("no token in the answer");
            }
            tokens[i] = token.group(1);
        }
        return tokens;
    }

    /** The token it sets up with, which may also scan (contract section 14). */
    String token() {
        return token;
    }

    String post(String path, String json) throws Exception {
        Http.Response response = http.post(path, json);
        if (response.status() != 201) {
            throw new IllegalStateException(path + " answered " + response.status() + ": " + response.body());
        }
        return response.body();
    }

    static long id(String body) {
        Matcher matcher = ID.matcher(body);
        if (!matcher.find()) {
            throw new IllegalStateException("no id in " + body);
        }
        return Long.parseLong(matcher.group(1));
    }

    /** A new event; returns {slug, id}. */
    String[] event() throws Exception {
        String slug = "bench-" + System.nanoTime() + "-" + (events++);
        long id = id(post("/api/v1/events", "{\"slug\":\"" + slug + "\",\"name\":\"Bench\",\"currency\":\"EUR\"}"));
        return new String[]{slug, Long.toString(id)};
    }

    /** Turns the event's waiting room on, through the API, so that the service's cache of the event sees it. */
    void openWaitingRoom(String event, int perMinute) throws Exception {
        Http.Response response = http.patch("/api/v1/events/" + event,
                "{\"waiting_room\":{\"enabled\":true,\"admission_per_minute\":" + perMinute + "}}", "\"0\"");
        if (response.status() != 200) {
            throw new IllegalStateException("opening the waiting room answered " + response.status());
        }
    }

    /** Turns the event's waiting list on, through the API, as {@link #openWaitingRoom} does the room. */
    void enableWaitingList(String event) throws Exception {
        Http.Response response = http.patch("/api/v1/events/" + event, "{\"waiting_list\":{\"enabled\":true}}",
                "\"0\"");
        if (response.status() != 200) {
            throw new IllegalStateException("turning the waiting list on answered " + response.status());
        }
    }

    /** A PUT on the admin's one connection; clients asking at once take turns here. */
    synchronized Http.Response put(String path, String json) throws Exception {
        return http.send("PUT", path, json);
    }

    /** How many bytes a GET of {@code path} answers, compressed with gzip when {@code gzip} (the JDK's client). */
    long bytes(String path, boolean gzip) throws Exception {
        java.net.http.HttpRequest.Builder request = java.net.http.HttpRequest
                .newBuilder(java.net.URI.create(base + path))
                .header("Authorization", "Bearer " + token);
        if (gzip) {
            request.header("Accept-Encoding", "gzip");
        }
        return java.net.http.HttpClient.newHttpClient()
                .send(request.build(), java.net.http.HttpResponse.BodyHandlers.ofByteArray()).body().length;
    }

    /** A GET on the admin's one connection; clients asking at once take turns here. */
    synchronized Http.Response get(String path) throws Exception {
        return http.send("GET", path, null);
    }

    /** One admin connection, one request at a time: clients canceling at once take turns here. */
    synchronized void cancel(String event, String order) throws Exception {
        Http.Response response = http.post("/api/v1/events/" + event + "/orders/" + order + "/cancel", null);
        if (response.status() != 200) {
            throw new IllegalStateException("canceling " + order + " answered " + response.status());
        }
    }

    long item(String event, boolean seated) throws Exception {
        return id(post("/api/v1/events/" + event + "/items",
                "{\"name\":\"Ticket\",\"price\":\"10.00\",\"requires_seat\":" + seated + "}"));
    }

    long quota(String event, long item, int size) throws Exception {
        return id(post("/api/v1/events/" + event + "/quotas",
                "{\"name\":\"Hot\",\"size\":" + size + ",\"items\":[" + item + "]}"));
    }

    /** A quota of one date of the event. */
    long quotaOn(String event, long date, long item, int size) throws Exception {
        return id(post("/api/v1/events/" + event + "/quotas",
                "{\"name\":\"Hot\",\"size\":" + size + ",\"items\":[" + item + "],\"date_id\":" + date + "}"));
    }

    /** A date of the event's series, on sale. */
    long date(String event, int n) throws Exception {
        return id(post("/api/v1/events/" + event + "/dates",
                "{\"name\":\"Date " + n + "\",\"starts_at\":\"2027-01-01T19:00:00Z\"}"));
    }

    /** Rows r1, r2, ... of seats numbered from 1, in one section. */
    void seatRows(String event, long item, int rows, int perRow) throws Exception {
        seatRowsOn(event, null, item, rows, perRow);
    }

    /** {@link #seatRows} of one date ({@code date} null: of none). */
    void seatRowsOn(String event, Long date, long item, int rows, int perRow) throws Exception {
        // An older build knows no dates: it refuses the field, even null.
        StringJoiner seats = new StringJoiner(",",
                date == null ? "{\"seats\":[" : "{\"date_id\":" + date + ",\"seats\":[",
                "]}");
        for (int row = 1; row <= rows; row++) {
            for (int number = 1; number <= perRow; number++) {
                seats.add("{\"guid\":\"r" + row + "-" + number + "\",\"name\":\"Seat " + number + "\",\"item_id\":"
                        + item + ",\"section\":\"Main\",\"row\":\"r" + row + "\",\"number\":" + number + "}");
            }
        }
        post("/api/v1/events/" + event + "/seats", seats.toString());
    }

    void seats(String event, long item, int count) throws Exception {
        StringJoiner seats = new StringJoiner(",", "{\"seats\":[", "]}");
        for (int i = 0; i < count; i++) {
            seats.add("{\"guid\":\"s" + i + "\",\"name\":\"Seat " + i + "\",\"item_id\":" + item + "}");
        }
        post("/api/v1/events/" + event + "/seats", seats.toString());
    }
}
