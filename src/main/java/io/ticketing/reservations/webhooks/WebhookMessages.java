package io.ticketing.reservations.webhooks;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.ticketing.reservations.jdbc.Jdbc;

/** Every statement of the webhook outbox. */
@ApplicationScoped
class WebhookMessages {

    /** A message still to deliver, or already delivered (a repeat after a crash). */
    record Message(String body, boolean delivered) {
    }

    private static final String INSERT = "INSERT INTO webhook_messages (id, type, body) VALUES (:id, :type, :body)";
    private static final String FIND = "SELECT body, delivered_at IS NOT NULL FROM webhook_messages WHERE id = :id";
    /** The first successful attempt records the delivery; a repeat after a crash changes nothing. */
    private static final String DELIVERED = """
            UPDATE webhook_messages SET delivered_at = now() WHERE id = :id AND delivered_at IS NULL""";

    private final Jdbc jdbc;

    WebhookMessages(Jdbc jdbc) {
        this.jdbc = jdbc;
    }

    /** In the caller's transaction: the message exists only if the change it reports commits. */
    void insert(String id, String type, String body) {
        jdbc.statement(INSERT).set("id", id).set("type", type).set("body", body).update();
    }

    Optional<Message> find(String id) {
        return jdbc.statement(FIND).set("id", id).list(row -> new Message(row.getString(1), row.getBoolean(2)))
                .stream().findFirst();
    }

    /** False when it was recorded before: this delivery was a repeat. */
    boolean markDelivered(String id) {
        return jdbc.statement(DELIVERED).set("id", id).update() == 1;
    }
}
