package io.ticketing.reservations.webhooks;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.ticketing.reservations.tasks.TaskHandler;

/** Sends one outbox message, signed, and records it delivered exactly once; any non-2xx answer is retried. */
@ApplicationScoped
class WebhookDelivery implements TaskHandler {

    private static final Logger LOG = Logger.getLogger(WebhookDelivery.class);

    private final WebhookConfig config;
    private final WebhookMessages messages;
    private final HttpClient http;
    private final WebhookSignature signature;

    /** Built when the workers start, so a URL without a valid secret stops the replica at once. */
    WebhookDelivery(WebhookConfig config, WebhookMessages messages) {
        this.config = config;
        this.messages = messages;
        this.http = HttpClient.newBuilder().connectTimeout(config.timeout()).build();
        this.signature = config.url().map(url -> new WebhookSignature(config.secret().orElse(null))).orElse(null);
    }

    @Override
    public String kind() {
        return Webhooks.TASK_KIND;
    }

    @Override
    public void run(String messageId) throws Exception {
        Optional<WebhookMessages.Message> message = messages.find(messageId);
        if (message.isEmpty() || message.get().delivered() || signature == null) {
            return;
        }
        String body = message.get().body();
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
        if (!messages.markDelivered(messageId)) {
            LOG.debugf("webhook %s was delivered before; this was a repeat", messageId);
        }
    }
}
