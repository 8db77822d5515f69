package io.ticketing.reservations.checkout;

import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import io.quarkus.test.common.http.TestHTTPResource;
import io.ticketing.reservations.support.Sql;

/**
 * The lock-off twins of the checkout page's CORS: with one header the page sends left out of
 * {@code quarkus.http.cors.headers}, the browser refuses to send the requests that carry it, so the buyer in another
 * origin than the API's gets no cart and is told the box office cannot be reached. Each subclass leaves out one.
 */
abstract class CorsRefusalTest {

    /** The headers the service allows (its {@code application.properties}), but {@code missing}: a test profile's. */
    static Map<String, String> corsHeadersWithout(String missing) {
        Properties configured = new Properties();
        try (Reader properties = Files.newBufferedReader(Path.of("src/main/resources/application.properties"))) {
            configured.load(properties);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> allowed = List.of(configured.getProperty("quarkus.http.cors.headers").split(","));
        assertThat(allowed).as("the headers the page sends").contains(missing);
        return Map.of("quarkus.http.cors.headers",
                String.join(",", allowed.stream().filter(header -> !header.equals(missing)).toList()));
    }

    /** Queue tickets the page takes before the refused header stops it: 0 when it is refused its first change. */
    abstract long ticketsTaken();

    @TestHTTPResource("/")
    URL api;

    @Inject
    Sql sql;

    private WebDriver browser;

    @BeforeEach
    void startChromium() throws Exception {
        browser = Chromium.start();
    }

    @AfterEach
    void stopChromium() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void aBuyerOnAnotherOriginGetsNoCartAndIsToldTheBoxOfficeCannotBeReached() {
        String event = newEvent("cors-refused");
        newQuota(event, 3, List.of(newItem(event, "Standing", "49.00")));
        String etag = admin().get("/api/v1/events/{e}", event).then().statusCode(200).extract().header("ETag");
        admin().header("If-Match", etag).body(Map.of("waiting_room", Map.of("enabled", true, "admission_per_minute",
                6000))).patch("/api/v1/events/{e}", event).then().statusCode(200);
        String origin = api.toString().replace("localhost", "127.0.0.1");
        browser.get(origin + "checkout/?api=" + api + "api/v1&token=test-storefront-token&events=" + event);
        new Select(browser.findElement(By.id("event"))).selectByValue(event);
        browser.findElement(By.id("join")).click();
        // The page tries a change it cannot know the fate of four more times, with its key, then gives up.
        new WebDriverWait(browser, Duration.ofSeconds(30)).until(ExpectedConditions.textToBe(By.id("status"),
                "We cannot reach the box office. Please check your connection and try again."));
        assertThat(sql.number("SELECT count(*) FROM carts c JOIN events e ON e.id = c.event_id WHERE e.slug = ?1",
                event)).as("carts of the event").isZero();
        assertThat(sql.number("SELECT count(*) FROM queue_tickets q JOIN events e ON e.id = q.event_id "
                + "WHERE e.slug = ?1", event)).as("queue tickets of the event").isEqualTo(ticketsTaken());
    }
}
