package io.ticketing.reservations.checkout;

import static io.ticketing.reservations.support.Api.addToCart;
import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.newSeatedItem;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.ticketing.reservations.support.Sql;
import io.ticketing.reservations.support.Venue;

/**
 * The checkout page draws a seating plan (contract section 13) in Chromium, as {@link CheckoutPageTest} runs it: a
 * buyer clicks two seats, sees another buyer's seat turn grey without a reload, is refused in words a seat taken a
 * moment before it clicked, and checks out. Screenshots go where {@code CheckoutPageTest}'s go.
 */
@QuarkusTest
class SeatingPlanPageTest {

    @TestHTTPResource("/")
    URL api;

    @Inject
    Sql sql;

    private WebDriver browser;
    private WebDriverWait waiting;

    @BeforeEach
    void startChromium() throws Exception {
        browser = Chromium.start();
        waiting = new WebDriverWait(browser, Duration.ofSeconds(15));
    }

    @AfterEach
    void stopChromium() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void aBuyerClicksTwoSeatsSeesAnotherBuyersSeatGreyLiveIsRefusedATakenOneAndBuys() throws Exception {
        String event = newEvent("checkout-plan");
        long stalls = newSeatedItem(event, "Stalls", "40.00");
        long balcony = newSeatedItem(event, "Balcony", "25.00");
        newQuota(event, 100, List.of(stalls, balcony));
        Venue hall = Venue.named("Studio").size(560, 360).category("Stalls", "#7f4a91")
                .category("Balcony", "#d36060").zone("Stalls", "Stalls", List.of("1", "2", "3"), 12, 100, 100)
                .zone("Balcony", "Balcony", List.of("1", "2"), 14, 60, 270);
        admin().body(hall.mappedTo(Map.of("Stalls", stalls, "Balcony", balcony)))
                .put("/api/v1/events/{event}/seating_plan", event).then().statusCode(200);
        String origin = api.toString().replace("localhost", "127.0.0.1");
        browser.get(origin + "checkout/?api=" + api + "api/v1&token=test-storefront-token&events=" + event);
        new Select(browser.findElement(By.id("event"))).selectByValue(event);
        browser.findElement(By.id("join")).click();
        waiting.until(ExpectedConditions.textToBe(By.id("status"), "It is your turn: choose your tickets."));
        waiting.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#map circle"), 64));
        assertThat(seat("Stalls-1-5").getAttribute("fill")).isEqualTo("#7f4a91");
        assertThat(seat("Balcony-2-1").getAttribute("fill")).isEqualTo("#d36060");
        Chromium.screenshot(browser, "plan-1-drawn");

        click("Stalls-2-6");
        waiting.until(ExpectedConditions.textToBe(By.id("status"), "Stalls, seat Stalls-2-6: in your cart."));
        click("Stalls-2-7");
        waiting.until(ExpectedConditions.numberOfElementsToBe(By.cssSelector("#positions li"), 2));
        waiting.until(ExpectedConditions.attributeToBe(seat("Stalls-2-7"), "data-state", "yours"));
        assertThat(browser.findElement(By.id("positions")).getText())
                .contains("Stalls (Stalls, row 2, seat 6): €40.00", "Stalls (Stalls, row 2, seat 7): €40.00");
        Chromium.screenshot(browser, "plan-2-two-seats-held");

        // Another buyer takes a balcony seat: the page hears of it on the stream and greys it, with no reload.
        addToCart(event, newCart(event), Map.of("item_id", balcony, "seat_guid", "Balcony-1-7")).then()
                .statusCode(201);
        waiting.until(ExpectedConditions.attributeToBe(seat("Balcony-1-7"), "data-state", "taken"));
        assertThat(seat("Balcony-1-7").getAttribute("fill")).isEqualTo("#bbb");
        Chromium.screenshot(browser, "plan-3-another-buyers-seat-greyed");

        // A seat taken a moment before the click, while the page still showed it free (as it was before the stream's
        // next reading): refused in words, and greyed.
        addToCart(event, newCart(event), Map.of("item_id", balcony, "seat_guid", "Balcony-1-8")).then()
                .statusCode(201);
        waiting.until(ExpectedConditions.attributeToBe(seat("Balcony-1-8"), "data-state", "taken"));
        ((JavascriptExecutor) browser).executeScript(
                "arguments[0].dataset.state = 'free'; arguments[0].setAttribute('fill', '#d36060')",
                seat("Balcony-1-8"));
        click("Balcony-1-8");
        waiting.until(ExpectedConditions.textToBe(By.id("status"),
                "Sorry, someone else took this seat a moment ago: please choose another."));
        assertThat(seat("Balcony-1-8").getAttribute("data-state")).isEqualTo("taken");
        assertThat(browser.findElements(By.cssSelector("#positions li"))).hasSize(2);
        Chromium.screenshot(browser, "plan-4-taken-seat-refused");

        browser.findElement(By.id("email")).sendKeys("grace@example.com");
        browser.findElement(By.id("checkout")).click();
        WebElement summary = waiting.until(ExpectedConditions.visibilityOfElementLocated(By.id("summary")));
        assertThat(summary.getText()).contains("€80.00");
        String code = summary.getText().replaceAll("^Order (\\S+):.*", "$1");
        List<?> sold = sql.rows("SELECT s.guid FROM order_positions p JOIN orders o ON o.id = p.order_id"
                + " JOIN seats s ON s.id = p.seat_id WHERE o.code = ?1 ORDER BY s.guid", code);
        assertThat(sold).isEqualTo(List.of("Stalls-2-6", "Stalls-2-7"));
        Chromium.screenshot(browser, "plan-5-order");
    }

    private WebElement seat(String guid) {
        return browser.findElement(By.cssSelector("#map circle[data-guid='" + guid + "']"));
    }

    /** Clicks the seat's circle as a buyer does, in the middle of it. */
    private void click(String guid) {
        waiting.until(ExpectedConditions.attributeToBe(seat(guid), "data-state", "free"));
        ((JavascriptExecutor) browser).executeScript("arguments[0].scrollIntoView({block: 'center'})", seat(guid));
        seat(guid).click();
    }
}
