package io.ticketing.reservations.webhooks;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;

import org.jboss.logging.Logger;

import io.quarkus.narayana.jta.QuarkusTransaction;
import io.ticketing.reservations.tasks.TaskHandler;

/** Sends one outbox message, signed, and records it delivered exactly once; any non-2xx answer is retried. */
@ApplicationScoped
class WebhookDelivery implements TaskHandler {

    private static final Logger LOG = Logger.getLogger(WebhookDelivery.class);

    private static final String FIND = "SELECT body, delivered_at IS NOT NULL FROM webhook_messages WHERE id = :id";
    /** The first successful attempt records the delivery; a repeat after a crash changes nothing. */
    private static final String DELIVERED = """
            UPDATE webhook_messages SET delivered_at = now() WHERE id = :id AND delivered_at IS NULL""";

    private final WebhookConfig config;
    private final EntityManager entityManager;
    private final HttpClient http;
    private final WebhookSignature signature;

    /** Built when the workers start, so a URL without a valid secret stops the replica at once. */
    WebhookDelivery(WebhookConfig config, EntityManager entityManager) {
        this.config = config;
        this.entityManager = entityManager;
        this.http = HttpClient.newBuilder().connectTimeout(config.timeout()).build();
        this.signature = config.url().map(url -> new WebhookSignature(config.secret().orElse(null))).orElse(null);
    }

    @Override
    public String kind() {
        return Webhooks.TASK_KIND;
    }

    @Override
    public void run(String messageId) throws Exception {
        List<Object[]> rows = QuarkusTransaction.requiringNew().call(() -> entityManager
                .createNativeQuery(FIND, Object[].class).setParameter("id", messageId).getResultList());
        if (rows.isEmpty() || Boolean.TRUE.equals(rows.get(0)[1]) || signature == null) {
            return;
        }
        String body = (String) rows.get(0)[0];
        long timestamp = System.currentTimeMillis() / 1000;
        HttpRequest request = HttpRequest.newBuilder(URI.create(config.url().get())).timeout(config.timeout())
                .header("content-type", "application/json").header("webhook-id", messageId)
                .header("webhook-timestamp", Long.toString(timestamp))
                .header("webhook-signature", signature.sign(messageId, timestamp, body))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        int status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        if (status < 200 || status >= 300) {
            throw new IllegalStateException("webhook " + messageId + " answered HTTP " + status);
        }
        int recorded = QuarkusTransaction.requiringNew().call(() -> entityManager.createNativeQuery(DELIVERED)
                .setParameter("id", messageId).executeUpdate());
        if (recorded == 0) {
            LOG.debugf("webhook %s was delivered before; this was a repeat", messageId);
        }
    }
}
