package io.ticketing.reservations.auth;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;

@ConfigMapping(prefix = "auth")
public interface AuthConfig {

    /** Bearer tokens with the admin scope ({@code AUTH_ADMIN_TOKENS}, comma-separated). */
    Optional<List<String>> adminTokens();

    /** Bearer tokens with the storefront scope ({@code AUTH_STOREFRONT_TOKENS}, comma-separated). */
    Optional<List<String>> storefrontTokens();

    /** How often each replica reads the API tokens changed since it last looked ({@link ApiTokens}). */
    Duration tokenSyncInterval();

    /** How often each replica writes when its API tokens were used. */
    Duration tokenUseFlushInterval();
}
