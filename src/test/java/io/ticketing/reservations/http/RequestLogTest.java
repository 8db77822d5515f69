package io.ticketing.reservations.http;

import static io.restassured.RestAssured.given;
import static io.ticketing.reservations.support.Api.newCart;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.storefront;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.jboss.logmanager.ExtLogRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;

@QuarkusTest
class RequestLogTest {

    private static final String UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

    private final BlockingQueue<ExtLogRecord> records = new LinkedBlockingQueue<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            ExtLogRecord extended = (ExtLogRecord) record;
            extended.copyAll(); // the MDC as it was on the thread that logged
            records.add(extended);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void listen() {
        Logger.getLogger(RequestLog.class.getName()).addHandler(capture);
        Logger.getLogger(LoggingResource.class.getName()).addHandler(capture);
    }

    @AfterEach
    void stopListening() {
        Logger.getLogger(RequestLog.class.getName()).removeHandler(capture);
        Logger.getLogger(LoggingResource.class.getName()).removeHandler(capture);
    }

    @Test
    void aCallersIdIsEchoedAndCarriedByEveryLineTheRequestLogs() throws Exception {
        String thread = given().header("X-Request-Id", "shop-7f3a.checkout:42").get("/test/log").then()
                .statusCode(200).header("X-Request-Id", "shop-7f3a.checkout:42").extract().asString();

        ExtLogRecord inside = next("logged while serving the request");
        assertThat(inside.getMdc(RequestLog.MDC_KEY)).isEqualTo("shop-7f3a.checkout:42");
        assertThat(thread).as("the line was written on a request thread, not the event loop")
                .doesNotContain("eventloop");
        ExtLogRecord end = next("GET /test/log 200");
        assertThat(end.getMdc(RequestLog.MDC_KEY)).isEqualTo("shop-7f3a.checkout:42");
    }

    @Test
    void withoutAnIdOrWithOneThatCouldForgeALineTheServiceMakesItsOwn() throws Exception {
        String first = given().get("/api/v1/nothing-here").then().statusCode(404).extract().header("X-Request-Id");
        String second = given().header("X-Request-Id", "a b\nlevel=ERROR forged").get("/api/v1/nothing-here").then()
                .statusCode(404).extract().header("X-Request-Id");

        assertThat(first).matches(UUID);
        assertThat(second).matches(UUID).isNotEqualTo(first);
        assertThat(next("GET /api/v1/nothing-here 404").getMdc(RequestLog.MDC_KEY)).isEqualTo(first);
        assertThat(next("GET /api/v1/nothing-here 404").getMdc(RequestLog.MDC_KEY)).isEqualTo(second);
    }

    /** Contract section 6: a cart id or an order code is a capability; the log names the route, never the value. */
    @Test
    void theLogNamesTheRouteNeverACartIdOrAnOrderCode() throws Exception {
        String event = newEvent("log-route");
        String cart = newCart(event);
        storefront().get("/api/v1/events/{event}/carts/{cart}", event, cart).then().statusCode(200);
        given().get("/api/v1/events/{event}/carts/{cart}", event, cart).then().statusCode(401);

        ExtLogRecord read = next("GET /api/v1/events/");
        assertThat(read.getFormattedMessage()).isEqualTo(read.getFormattedMessage().replace(cart, ""))
                .startsWith("GET /api/v1/events/{event}/carts/{cart} 200");
        ExtLogRecord refused = next("GET /api/v1/events/");
        assertThat(refused.getFormattedMessage()).doesNotContain(cart).doesNotContain(event).contains(" 401 ");
    }

    @Test
    void theHttpLayersOwnRefusalsCarryTheIdToo() {
        given().header("X-Request-Id", "too-long-uri").get("/api/v1/events/" + "x".repeat(9000)).then()
                .statusCode(414).header("X-Request-Id", "too-long-uri");
    }

    /** The next captured line that starts with {@code message}, skipping others; fails after 5 s. */
    private ExtLogRecord next(String message) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline) {
            ExtLogRecord record = records.poll(100, TimeUnit.MILLISECONDS);
            if (record != null && record.getFormattedMessage().startsWith(message)) {
                return record;
            }
        }
        throw new AssertionError("no log line starting with '" + message + "' within 5 s");
    }
}
