package io.ticketing.reservations.auth;

import java.util.List;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;

@ConfigMapping(prefix = "auth")
public interface AuthConfig {

    /** Bearer tokens with the admin scope ({@code AUTH_ADMIN_TOKENS}, comma-separated). */
    Optional<List<String>> adminTokens();

    /** Bearer tokens with the storefront scope ({@code AUTH_STOREFRONT_TOKENS}, comma-separated). */
    Optional<List<String>> storefrontTokens();
}
