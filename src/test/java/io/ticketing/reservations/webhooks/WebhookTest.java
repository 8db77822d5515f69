package io.ticketing.reservations.webhooks;

import static io.ticketing.reservations.support.Api.admin;
import static io.ticketing.reservations.support.Api.cartWith;
import static io.ticketing.reservations.support.Api.checkout;
import static io.ticketing.reservations.support.Api.newEvent;
import static io.ticketing.reservations.support.Api.newItem;
import static io.ticketing.reservations.support.Api.newQuota;
import static io.ticketing.reservations.support.Api.storefront;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.ticketing.reservations.order.OrderService;
import io.ticketing.reservations.support.Eventually;
import io.ticketing.reservations.support.Json;
import io.ticketing.reservations.support.Sql;
import io.ticketing.reservations.tasks.TaskWorkerPool;
import io.ticketing.reservations.tasks.TaskWorkers;

@QuarkusTest
@TestProfile(WebhookProfile.class)
class WebhookTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    OrderService orders;

    @Inject
    TaskWorkers workers;

    @Inject
    Sql sql;

    /** What a receiver does (Standard Webhooks): HMAC-SHA256 over id.timestamp.body with the decoded secret. */
    private static boolean validSignature(WebhookReceiver.Attempt attempt) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(Base64.getDecoder().decode(WebhookReceiver.SECRET.substring("whsec_".length())),
                "HmacSHA256"));
        String signed = attempt.id() + "." + attempt.timestamp() + "." + attempt.body();
        String expected = "v1,"
                + Base64.getEncoder().encodeToString(mac.doFinal(signed.getBytes(StandardCharsets.UTF_8)));
        return expected.equals(attempt.signature());
    }

    private static Optional<WebhookReceiver.Attempt> delivered(String type, String orderCode) {
        return WebhookReceiver.running.delivered().stream()
                .filter(attempt -> attempt.body().contains("\"" + type + "\"") && attempt.body().contains(orderCode))
                .findFirst();
    }

    private static WebhookReceiver.Attempt awaitDelivered(String type, String orderCode) {
        Eventually.within(Duration.ofSeconds(15), type + " for " + orderCode,
                () -> delivered(type, orderCode).isPresent());
        return delivered(type, orderCode).orElseThrow();
    }

    private static String placeOrder(String event, long item) {
        return checkout(event, cartWith(event, Map.of("item_id", item))).then().statusCode(201).extract().path("code");
    }

    @Test
    void everyOrderChangeReachesTheReceiverSignedWithTheOrderAsItsGetShowsIt() throws Exception {
        String event = newEvent("hooks");
        long item = newItem(event, "Ticket", "25.00");
        newQuota(event, 10, List.of(item));
        String code = placeOrder(event, item);
        admin().post("/api/v1/events/{event}/orders/{code}/mark_paid", event, code).then().statusCode(200);
        admin().post("/api/v1/events/{event}/orders/{code}/cancel", event, code).then().statusCode(200);
        String late = placeOrder(event, item);
        sql.passDeadline(late);
        assertThat(orders.expireIfDue(sql.orderId(late))).isTrue();

        for (String[] expected : new String[][]{{"order.placed", code}, {"order.paid", code}, {"order.canceled", code},
                {"order.expired", late}}) {
            WebhookReceiver.Attempt attempt = awaitDelivered(expected[0], expected[1]);
            assertThat(validSignature(attempt)).as(expected[0]).isTrue();
            assertThat(attempt.id()).startsWith("msg_");
            assertThat(Long.parseLong(attempt.timestamp())).isCloseTo(Instant.now().getEpochSecond(),
                    org.assertj.core.data.Offset.offset(60L));
            JsonNode body = JSON.readTree(attempt.body());
            assertThat(body.get("type").asText()).isEqualTo(expected[0]);
            assertThat(body.get("data").get("code").asText()).isEqualTo(expected[1]);
            assertThat(body.get("data").get("total").asText()).isEqualTo("25.00");
            assertThat(body.get("data").get("status").asText()).isEqualTo(expected[0].substring("order.".length())
                    .replace("placed", "pending"));
            assertThat(Instant.parse(body.get("timestamp").asText())).isBefore(Instant.now().plusSeconds(1));
        }
        JsonNode paid = JSON.readTree(awaitDelivered("order.paid", code).body());
        assertThat(paid.get("data").get("version").asLong()).isEqualTo(1);
        assertThat(sql.number("SELECT count(*) FROM webhook_messages WHERE body LIKE ?1 AND delivered_at IS NOT NULL",
                "%" + code + "%")).isEqualTo(3);
    }

    /** A ticket that changed hands: the receiver's new order, the order it left, and no ticket's secret. */
    @Test
    void aTransferReachesTheReceiverWithBothOrdersAndNoSecret() throws Exception {
        String event = newEvent("hooks-transfer");
        long item = newItem(event, "Ticket", "25.00");
        newQuota(event, 10, List.of(item));
        String code = placeOrder(event, item);
        long position = storefront().get("/api/v1/events/{event}/orders/{code}", event, code).then().extract()
                .jsonPath().getLong("positions[0].id");
        var received = admin().body(Map.of("email", "grace@example.com"))
                .post("/api/v1/events/{event}/orders/{code}/positions/{position}/transfer", event, code, position)
                .then().statusCode(200).extract();

        JsonNode data = JSON.readTree(awaitDelivered("order.position_transferred", code).body()).get("data");
        assertThat(data.get("from_order").asText()).isEqualTo(code);
        assertThat(data.get("positions").get(0).asLong()).isEqualTo(position);
        assertThat(data.get("order").get("code").asText()).isEqualTo(received.path("code"));
        assertThat(data.get("order").get("email").asText()).isEqualTo("grace@example.com");
        assertThat(data.get("order").get("positions").get(0).get("secret").isNull()).isTrue();
        assertThat(sql.number("SELECT count(*) FROM webhook_messages WHERE strpos(body, ?1) > 0",
                received.<String>path("positions[0].secret"))).isZero();
    }

    /** The shop mails the buyer its offer: the webhook carries the entry as its GET shows it, with the offer. */
    @Test
    void anOfferFromTheWaitingListReachesTheReceiverWithItsVoucher() throws Exception {
        String event = newEvent("hooks-offer");
        admin().header("If-Match", "\"0\"").body(Map.of("waiting_list", Map.of("enabled", true)))
                .patch("/api/v1/events/{event}", event).then().statusCode(200);
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 1, List.of(item));
        String code = placeOrder(event, item);
        String entry = storefront().body(Map.of("item_id", item, "email", "grace@example.com"))
                .post("/api/v1/events/{event}/waiting_list", event).then().statusCode(201).extract().path("id");
        admin().post("/api/v1/events/{event}/orders/{code}/cancel", event, code).then().statusCode(200);

        WebhookReceiver.Attempt attempt = awaitDelivered("waiting_list.offered", entry);
        assertThat(validSignature(attempt)).isTrue();
        JsonNode data = JSON.readTree(attempt.body()).get("data");
        assertThat(data.get("id").asText()).isEqualTo(entry);
        assertThat(data.get("status").asText()).isEqualTo("offered");
        assertThat(data.get("email").asText()).isEqualTo("grace@example.com");
        assertThat(data.get("offer").get("voucher_code").asText()).isEqualTo(storefront()
                .get("/api/v1/events/{event}/waiting_list/{entry}", event, entry).then().extract()
                .path("offer.voucher_code"));
    }

    @Test
    void aReceiverThatFailsAtFirstGetsTheSameWebhookLater() throws Exception {
        String event = newEvent("hooks-retry");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 10, List.of(item));
        WebhookReceiver.running.failNext.set(3);
        String code = placeOrder(event, item);
        WebhookReceiver.Attempt delivered = awaitDelivered("order.placed", code);
        List<WebhookReceiver.Attempt> tries = WebhookReceiver.running.attempts.stream()
                .filter(attempt -> attempt.id().equals(delivered.id())).toList();
        assertThat(tries).hasSizeGreaterThanOrEqualTo(2);
        assertThat(tries).filteredOn(attempt -> attempt.status() == 204).hasSize(1);
        assertThat(tries).allSatisfy(attempt -> assertThat(validSignature(attempt)).isTrue());
    }

    @Test
    void aHangingReceiverNeverSlowsACheckout() throws InterruptedException {
        String event = newEvent("hooks-slow");
        long item = newItem(event, "Ticket", "10");
        newQuota(event, 10, List.of(item));
        WebhookReceiver receiver = WebhookReceiver.running;
        receiver.release = new CountDownLatch(1);
        receiver.held = new CountDownLatch(1);
        receiver.holdNext.set(4);
        try {
            List<String> codes = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                String cart = cartWith(event, Map.of("item_id", item));
                long started = System.nanoTime();
                codes.add(checkout(event, cart).then().statusCode(201).extract().path("code"));
                assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));
                if (i == 0) {
                    assertThat(receiver.held.await(10, TimeUnit.SECONDS)).as("the receiver hangs on a webhook")
                            .isTrue();
                }
            }
            assertThat(codes).noneMatch(code -> delivered("order.placed", code).isPresent());
            receiver.release.countDown();
            codes.forEach(code -> awaitDelivered("order.placed", code));
        } finally {
            receiver.holdNext.set(0);
            receiver.release.countDown();
        }
    }

    @Test
    void twoPoolsDeliverEveryWebhookExactlyOnceAndQuickly() throws Exception {
        TaskWorkerPool second = workers.newPool("second-pool");
        second.start();
        try {
            String event = newEvent("hooks-two-pools");
            long item = newItem(event, "Ticket", "10");
            newQuota(event, 1000, List.of(item));
            Map<String, Long> placedAt = new HashMap<>();
            for (int i = 0; i < 100; i++) {
                String cart = cartWith(event, Map.of("item_id", item));
                long started = System.nanoTime();
                placedAt.put(Json.text(checkout(event, cart).then().statusCode(201).extract(), "code"), started);
            }
            Eventually.within(Duration.ofSeconds(30), "100 webhooks", () -> placedAt.keySet().stream()
                    .allMatch(code -> delivered("order.placed", code).isPresent()));
            Map<String, Long> deliveriesPerId = WebhookReceiver.running.delivered().stream()
                    .collect(Collectors.groupingBy(WebhookReceiver.Attempt::id, Collectors.counting()));
            assertThat(deliveriesPerId.values()).allMatch(count -> count == 1);

            List<Long> delaysMs = new ArrayList<>();
            placedAt.forEach((code, placed) -> delaysMs
                    .add((delivered("order.placed", code).orElseThrow().receivedNanos() - placed) / 1_000_000));
            delaysMs.sort(Long::compare);
            System.out.printf(
                    "webhooks: checkout request sent to webhook received, 100 orders: median %d ms, worst %d ms%n",
                    delaysMs.get(49), delaysMs.get(99));
            assertThat(delaysMs.get(99)).isLessThan(5_000);
        } finally {
            second.stop();
        }
    }
}
