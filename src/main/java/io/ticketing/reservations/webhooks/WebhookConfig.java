package io.ticketing.reservations.webhooks;

import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Where order webhooks go and how they are signed ({@code WEBHOOK_*} environment variables). */
@ConfigMapping(prefix = "webhook")
public interface WebhookConfig {

    /** The receiver; without it no webhook is written or sent. */
    Optional<String> url();

    /** The signing secret, {@code whsec_} and base64, as the Standard Webhooks convention writes it. */
    Optional<String> secret();

    /** Tries per webhook before it stays failed; with the default backoff, about a day and a half. */
    @WithDefault("40")
    int maxAttempts();

    /** The longest one delivery attempt may take; keep it well below {@code tasks.lease}. */
    @WithDefault("10s")
    Duration timeout();
}
