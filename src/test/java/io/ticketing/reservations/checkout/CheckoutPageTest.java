package io.ticketing.reservations.checkout;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.channelToken;
import static io.ticketing.reservations.support.Api.newAllotment;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newSeatRows;
import static io.ticketing.reservations.support.Api.newSeatedItem;
import static io.ticketing.reservations.support.Api.storefront;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Pattern;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logmanager.ExtLogRecord;
import org.jboss.logmanager.formatters.PatternFormatter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.ticketing.reservations.http.RequestLog;
import io.ticketing.reservations.locking.LockTarget;
import io.ticketing.reservations.support.Sql;

/**
 * The checkout page ({@code src/main/resources/checkout}) in a real browser: Debian's Chromium, headless, driven
 * through its ChromeDriver. The page is loaded from {@code 127.0.0.1} and calls the API on {@code localhost}, another
 * origin, so every call goes through CORS as a shop's would (the test profile allows that origin). One buyer goes
 * through the waiting room, sees another buyer's sale arrive on the availability stream, is refused more than is
 * left, holds the best seats, extends them, and checks out while the event's locks are held elsewhere, so that the
 * checkout is answered {@code 503 lock_timeout} and retried with its key. Then the database and the request log are
 * read. A screenshot of each step goes to {@code target/checkout}, or where {@code -Dcheckout.screenshots=} says (the
 * checkout page's document: {@code docs/checkout}).
 */
@QuarkusTest
class CheckoutPageTest {

    private static final Duration STEP = Duration.ofSeconds(15);
    private static final ObjectMapper JSON = new ObjectMapper();

    @TestHTTPResource("/")
    URL api;

    @Inject
    Sql sql;

    @ConfigProperty(name = "quarkus.datasource.jdbc.url")
    String url;

    @ConfigProperty(name = "quarkus.datasource.username")
    String username;

    @ConfigProperty(name = "quarkus.datasource.password")
    String password;

    /** A line of the request log ({@code POST /api/v1/... 201 12 ms}) and the id of the request it tells of. */
    private record Logged(String line, String requestId) {
    }

    private final List<Logged> requests = new CopyOnWriteArrayList<>();
    private final Handler requestLog = new Handler() {
        private final PatternFormatter message = new PatternFormatter("%s");

        @Override
        public void publish(LogRecord record) {
            String id = ((ExtLogRecord) record).getMdc(RequestLog.MDC_KEY);
            requests.add(new Logged(message.format(record), id == null ? "" : id));
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private WebDriver browser;
    private WebDriverWait waiting;

    @BeforeEach
    void startChromium() throws Exception {
        browser = Chromium.start();
        waiting = new WebDriverWait(browser, STEP);
        Logger.getLogger(RequestLog.class.getName()).addHandler(requestLog);
    }

    @AfterEach
    void stopChromium() {
        Logger.getLogger(RequestLog.class.getName()).removeHandler(requestLog);
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void aBuyerOnAnotherOriginQueuesSeesOtherSalesLiveIsRefusedWhatIsGoneAndBuysThroughARetry() throws Exception {
        String event = newEvent("checkout");
        long standing = newItem(event, "Standing", "49.00");
        long balcony = newSeatedItem(event, "Balcony", "89.00");
        newQuota(event, 3, List.of(standing));
        newQuota(event, 4, List.of(balcony));
        newSeatRows(event, balcony, "Balcony", List.of("A"), 4);
        room(event, 1); // one a minute: the first in line is let in, the second waits
        String origin = api.toString().replace("localhost", "127.0.0.1");
        assertThat(origin).as("the page's origin differs from the API's").isNotEqualTo(api.toString());
        browser.get(origin + "checkout/?api=" + api + "api/v1&token=test-storefront-token&events=" + event);
        new Select(browser.findElement(By.id("event"))).selectByValue(event);
        Chromium.screenshot(browser, "1-choose-the-event");

        // The waiting room: two buyers came first; the page is third in line, one ahead of it still waiting.
        String otherBuyer = admissionOf(event, queue(event));
        queue(event);
        browser.findElement(By.id("join")).click();
        waiting.until(ExpectedConditions.textMatches(By.id("place"), Pattern.compile(
                "1 person is ahead of you: .+ to go\\.")));
        Chromium.screenshot(browser, "2-in-line");
        room(event, 600);
        waiting.until(ExpectedConditions.textToBe(By.id("status"), "It is your turn: choose your tickets."));
        waitForLeft(standing, "3");
        assertThat(browser.findElement(By.id("title")).getText()).as("the heading names the event, not its slug")
                .isEqualTo("checkout");
        Chromium.screenshot(browser, "3-on-sale");
        JsonNode visit = visit(event);
        String reference = visit.path("reference").asText();
        String cart = visit.path("cart").asText();
        String ticket = visit.path("ticket").asText();
        assertThat(visit.path("admission").asText()).as("admitted").isNotEmpty();

        // Another buyer takes a ticket: the page hears of it on the stream alone.
        String otherCart = storefront().header("Admission-Token", otherBuyer).post("/api/v1/events/{e}/carts", event)
                .then().statusCode(201).extract().path("id");
        storefront().header("Admission-Token", otherBuyer).body(Map.of("positions", List.of(Map.of("item_id",
                standing)))).post("/api/v1/events/{e}/carts/{c}/positions", event, otherCart).then().statusCode(201);
        waitForLeft(standing, "2");
        Chromium.screenshot(browser, "4-another-buyer-took-one");

        // The best two seats, held, with their countdown.
        choose(balcony, 2).click();
        waiting.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#positions li"), 2));
        waiting.until(ExpectedConditions.textMatches(By.id("countdown"), Pattern.compile(
                "We hold these for you for (30|2\\d):\\d\\d more\\.")));
        List<?> seats = sql.rows("SELECT s.name FROM cart_positions p JOIN seats s ON s.id = p.seat_id "
                + "WHERE p.cart_id = ?1 ORDER BY s.number", cart);
        assertThat(seats).hasSize(2);
        assertThat(browser.findElement(By.id("positions")).getText()).contains("Balcony (" + seats.get(0) + "): €89.00",
                "Balcony (" + seats.get(1) + "): €89.00");
        Chromium.screenshot(browser, "5-seats-held");

        // More than is left: refused, in words, and nothing held.
        choose(standing, 3).click();
        waiting.until(ExpectedConditions.textToBe(By.id("status"), "Sorry, only 2 of “Standing” are left."));
        assertThat(sql.number("SELECT count(*) FROM cart_positions WHERE cart_id = ?1", cart)).isEqualTo(2);
        Chromium.screenshot(browser, "6-sold-out-refusal");

        long before = deadline(cart);
        browser.findElement(By.id("extend")).click();
        waiting.until(ExpectedConditions.textToBe(By.id("status"), "We hold your tickets for you longer."));
        assertThat(deadline(cart)).as("the holds' deadline, extended").isGreaterThan(before);

        // The holds are in their last minute, so the checkout re-checks them under the event's locks, which another
        // writer holds: 503 lock_timeout, Retry-After, and the page tries again with the same key once it is free.
        sql.update("UPDATE cart_positions SET expires = now() + interval '30 seconds' WHERE cart_id = ?1", cart);
        long eventKey = LockTarget.event(sql.number("SELECT id FROM events WHERE slug = ?1", event)).key();
        try (Connection holder = DriverManager.getConnection(url, username, password);
                Statement statement = holder.createStatement()) {
            statement.execute("SELECT pg_advisory_lock(" + eventKey + ")");
            browser.findElement(By.id("email")).sendKeys("ada@example.com");
            browser.findElement(By.id("checkout")).click();
            waiting.until(ExpectedConditions.textMatches(By.id("status"), Pattern.compile(
                    "Many people are buying right now\\. Trying again in \\d+ s…")));
            Chromium.screenshot(browser, "7-busy-retrying");
        }
        WebElement summary = waiting.until(ExpectedConditions.visibilityOfElementLocated(By.id("summary")));
        String code = summary.getText().replaceAll("^Order (\\S+):.*", "$1");
        assertThat(summary.getText()).contains("€178.00", "reserved for you until you pay");
        assertThat(browser.findElement(By.id("reference")).getText()).isEqualTo(reference);
        Chromium.screenshot(browser, "8-order");

        // The database: one order, of the held seats, and the cart gone.
        assertThat(sql.rows("SELECT code, status, email FROM orders WHERE event_id = (SELECT id FROM events "
                + "WHERE slug = ?1) AND email = 'ada@example.com'", event)).singleElement()
                .satisfies(row -> assertThat((Object[]) row).containsExactly(code, "pending", "ada@example.com"));
        assertThat(sql.rows("SELECT s.name FROM order_positions p JOIN orders o ON o.id = p.order_id JOIN seats s "
                + "ON s.id = p.seat_id WHERE o.code = ?1 ORDER BY s.number", code)).isEqualTo(seats);
        assertThat(sql.number("SELECT count(*) FROM carts WHERE id = ?1", cart)).isZero();

        // The request log: every request the page sent carries its reference, the checkout twice, each named by its
        // route, never by the ticket, cart or order it names (contract section 6).
        List<String> pageRequests = requests.stream().filter(logged -> logged.requestId().startsWith(reference + "."))
                .map(logged -> logged.line().replaceAll(" \\d+ ms$", "")).toList();
        String events = "/api/v1/events/{event}";
        assertThat(pageRequests).containsSubsequence(
                "POST " + events + "/queue 201",
                "GET " + events + "/queue/{ticket} 200",
                "POST " + events + "/carts 201",
                "POST " + events + "/carts/{cart}/best_available 201",
                "POST " + events + "/carts/{cart}/positions 409",
                "POST " + events + "/carts/{cart}/extend 200",
                "POST " + events + "/orders 503",
                "POST " + events + "/orders 201");
        assertThat(requests).extracting(Logged::line).as("no capability in the log")
                .noneMatch(line -> line.contains(ticket) || line.contains(cart) || line.contains(code));
        assertThat(requests).as("CORS preflights: the page is on another origin, refused before any route")
                .anyMatch(logged -> logged.line().startsWith("OPTIONS /api/v1/events/… 200"));
        // Both checkouts the browser sent carried the one key whose record answered with the order.
        List<?> key = sql.rows("SELECT key FROM idempotency_keys WHERE key LIKE ?1 AND status = 201 AND body LIKE ?2",
                reference + "-%", "%\"code\":\"" + code + "\"%");
        assertThat(key).hasSize(1);
        assertThat(sentHeaders("POST", api + "api/v1/events/" + event + "/orders", "Idempotency-Key"))
                .hasSizeGreaterThanOrEqualTo(2).containsOnly((String) key.get(0));

        // And the browser really enforces CORS on that origin: a header the API does not allow is refused.
        Object refused = ((JavascriptExecutor) browser).executeAsyncScript(
                """
                        const done = arguments[arguments.length - 1];
                        fetch(arguments[0], { headers: { 'X-Not-Allowed': '1' } }).then(() => done('sent'), () => done('refused'));
                        """,
                api + "api/v1/events/" + event + "/catalog");
        assertThat(refused).isEqualTo("refused");
    }

    /**
     * The lock-off twin of the stream: given a token the stream refuses in its URL (only a storefront token goes in
     * one), the page still sells through its headers, but hears of nothing live and says so.
     */
    @Test
    void aPageWhoseStreamRefusesItsAccessTokenSaysItHasNoLiveUpdates() throws Exception {
        String event = newEvent("checkout-no-stream");
        newQuota(event, 3, List.of(newItem(event, "Standing", "49.00")));
        String origin = api.toString().replace("localhost", "127.0.0.1");
        browser.get(origin + "checkout/?api=" + api + "api/v1&token=test-admin-token&events=" + event);
        new Select(browser.findElement(By.id("event"))).selectByValue(event);
        browser.findElement(By.id("join")).click();
        waiting.until(ExpectedConditions.textToBe(By.id("status"), "It is your turn: choose your tickets."));
        waiting.until(ExpectedConditions.textToBe(By.id("live"),
                "Live updates are unavailable: reload the page to see what is left."));
        assertThat(requests).extracting(Logged::line)
                .anyMatch(line -> line.startsWith("GET /api/v1/events/{event}/availability/stream 401"));
    }

    /**
     * A box office's page (contract section 12): opened with the box office's storefront token, it shows what is left
     * for its channel, its allotment first, and follows the web shop's sales live on the stream.
     */
    @Test
    void aBoxOfficesPageShowsWhatIsLeftForItsChannelLive() throws Exception {
        String boxOffice = channelToken("box-office");
        String event = newEvent("checkout-box-office");
        long standing = newItem(event, "Standing", "49.00");
        long quota = newQuota(event, 10, List.of(standing));
        newAllotment(event, quota, "box-office", 4);
        String origin = api.toString().replace("localhost", "127.0.0.1");
        browser.get(origin + "checkout/?api=" + api + "api/v1&token=" + boxOffice + "&events=" + event);
        new Select(browser.findElement(By.id("event"))).selectByValue(event);
        browser.findElement(By.id("join")).click();
        waiting.until(ExpectedConditions.textToBe(By.id("status"), "It is your turn: choose your tickets."));
        waitForLeft(standing, "10");
        addToCart(event, newCart(event), Map.of("item_id", standing, "quantity", 6)).then().statusCode(201);
        waitForLeft(standing, "4");
        Chromium.screenshot(browser, "box-office-share");
    }

    /** The value of {@code header} in each request the browser sent with that method to that URL, in order. */
    private List<String> sentHeaders(String method, String url, String header) throws Exception {
        List<String> values = new ArrayList<>();
        for (LogEntry entry : browser.manage().logs().get(LogType.PERFORMANCE)) {
            JsonNode message = JSON.readTree(entry.getMessage()).path("message");
            JsonNode request = message.path("params").path("request");
            if (message.path("method").asText().equals("Network.requestWillBeSent")
                    && request.path("method").asText().equals(method) && request.path("url").asText().equals(url)) {
                values.add(request.path("headers").path(header).asText());
            }
        }
        return values;
    }

    /** Turns the event's waiting room on, at {@code perMinute}. */
    private static void room(String event, int perMinute) {
        String etag = admin().get("/api/v1/events/{e}", event).then().statusCode(200).extract().header("ETag");
        admin().header("If-Match", etag).body(Map.of("waiting_room", Map.of("enabled", true, "admission_per_minute",
                perMinute))).patch("/api/v1/events/{e}", event).then().statusCode(200);
    }

    private static String queue(String event) {
        return storefront().post("/api/v1/events/{e}/queue", event).then().statusCode(201).extract().path("ticket");
    }

    /** The ticket's admission token, once the background admission has given it one. */
    private String admissionOf(String event, String ticket) {
        return waiting.until(ignored -> storefront().get("/api/v1/events/{e}/queue/{t}", event, ticket)
                .then().statusCode(200).extract().<String>path("admission_token"));
    }

    /** The quantity chosen in the item's row, and that row's button. */
    private WebElement choose(long item, int quantity) {
        WebElement row = browser.findElement(By.cssSelector("tr[data-item='" + item + "']"));
        new Select(row.findElement(By.tagName("select"))).selectByValue(Integer.toString(quantity));
        return waiting.until(ExpectedConditions.elementToBeClickable(row.findElement(By.tagName("button"))));
    }

    private void waitForLeft(long item, String left) {
        waiting.until(ExpectedConditions.textToBe(By.cssSelector("tr[data-item='" + item + "'] .left"), left));
    }

    /** What the page keeps of its visit: its reference, admission and cart. */
    private JsonNode visit(String event) throws Exception {
        return JSON.readTree((String) ((JavascriptExecutor) browser).executeScript(
                "return sessionStorage.getItem(arguments[0])", "checkout:" + event));
    }

    /** When the cart's first hold runs out, in microseconds. */
    private long deadline(String cart) {
        return sql.number("SELECT (extract(epoch FROM min(expires)) * 1000000)::bigint FROM cart_positions "
                + "WHERE cart_id = ?1", cart);
    }

}
