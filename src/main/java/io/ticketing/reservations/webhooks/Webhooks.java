package io.ticketing.reservations.webhooks;

import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.ticketing.reservations.auth.RandomIds;
import io.ticketing.reservations.tasks.TaskQueue;

/**
 * The outbox: a webhook is written, and its delivery task enqueued, in the transaction of the change it
 * reports, so it is sent if and only if the change commits. Sending happens later, in a worker: a slow or
 * dead receiver never slows the request.
 */
@ApplicationScoped
public class Webhooks {

    static final String TASK_KIND = "webhook";

    private final WebhookConfig config;
    private final TaskQueue queue;
    private final WebhookMessages messages;
    private final ObjectMapper json;
    private final Clock clock;

    Webhooks(WebhookConfig config, TaskQueue queue, WebhookMessages messages, ObjectMapper json, Clock clock) {
        this.clock = clock;
        this.config = config;
        this.queue = queue;
        this.messages = messages;
        this.json = json;
    }

    /**
     * Writes {@code {"type", "timestamp", "data"}} for delivery. Without {@code WEBHOOK_URL} it does nothing,
     * and {@code data} (the order's view: more queries in the caller's transaction) is never built.
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void publish(String type, Supplier<Object> data) {
        if (config.url().isEmpty()) {
            return;
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", type);
        body.put("timestamp", clock.instant().truncatedTo(ChronoUnit.MICROS));
        body.put("data", data.get());
        String id = "msg_" + RandomIds.next();
        try {
            messages.insert(id, type, json.writeValueAsString(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("webhook body for " + type + " cannot be written", e);
        }
        queue.enqueue(TASK_KIND, id, config.maxAttempts());
    }
}
