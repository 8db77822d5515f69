package io.ticketing.reservations.auth;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;

/**
 * Quarkus Security's mechanism for bearer tokens: a known token is an identity with its scope's roles
 * ({@link Roles}), which {@code @RolesAllowed} on the resources checks, and with its {@link Caller}, which limits an
 * organizer's token to its organizer's events; no token is anonymous; an unknown, revoked or expired one fails.
 * Configured tokens are compared as SHA-256 digests in constant time, every one every time; organizers' tokens
 * ({@link ApiTokens}) are found by their prefix and proved by their digest, from memory on the event loop; one this
 * replica has not seen yet is looked for again after its next read of changed tokens.
 */
@ApplicationScoped
public class BearerTokens implements HttpAuthenticationMechanism {

    private static final String BEARER = "Bearer ";
    /**
     * The availability stream (contract section 8) also takes a storefront token as {@code ?access_token=} (RFC 6750
     * section 2.3), since a browser's EventSource cannot send headers. Only there, and only a storefront token:
     * elsewhere a token in a URL would end up in proxies' logs for nothing. The request log writes the path without
     * the query, spans carry it without the token ({@code tracing/NoTokensInSpans}), and metrics carry route
     * templates only.
     */
    private static final String STREAM_PATH = "/availability/stream";
    private static final String QUERY_TOKEN = "access_token";

    /** Digests of the configured tokens, with the identity each is: made once, as it never changes. */
    private record Configured(byte[] digest, Set<String> roles, SecurityIdentity identity) {
    }

    private final List<Configured> tokens = new ArrayList<>();
    private final ApiTokens apiTokens;

    BearerTokens(AuthConfig config, ApiTokens apiTokens) {
        this.apiTokens = apiTokens;
        Set<String> platform = Set.of(Roles.PLATFORM, Roles.ADMIN, Roles.STOREFRONT, Roles.CHECKIN);
        Set<String> storefront = Set.of(Roles.STOREFRONT);
        config.adminTokens().orElse(List.of()).forEach(token -> tokens
                .add(new Configured(digest(token), platform, identity(platform, Caller.PLATFORM))));
        config.storefrontTokens().orElse(List.of()).forEach(token -> tokens.add(new Configured(digest(token),
                storefront, identity(storefront, Caller.CONFIGURED_STOREFRONT))));
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identityProviders) {
        String authorization = context.request().getHeader(HttpHeaders.AUTHORIZATION);
        boolean fromQuery = false;
        if (authorization == null && context.normalizedPath().endsWith(STREAM_PATH)) {
            String queryToken = context.request().getParam(QUERY_TOKEN);
            authorization = queryToken == null ? null : BEARER + queryToken;
            fromQuery = queryToken != null;
        }
        if (authorization == null) {
            return Uni.createFrom().optional(Optional.empty());
        }
        String token = tokenOf(authorization);
        if (token == null) {
            return refused();
        }
        boolean storefrontOnly = fromQuery;
        Optional<String> prefix = ApiTokens.prefixOf(token);
        if (prefix.isEmpty()) {
            Configured configured = configured(token);
            if (configured == null || storefrontOnly && configured.roles().contains(Roles.ADMIN)) {
                return refused();
            }
            return Uni.createFrom().item(configured.identity());
        }
        Uni<Optional<ApiTokens.Entry>> entry = apiTokens.known(prefix.get()).isPresent()
                ? Uni.createFrom().item(admitted(prefix.get(), token))
                : Uni.createFrom().completionStage(apiTokens.nextSync()).map(synced -> admitted(prefix.get(), token));
        return entry.onItem().transformToUni(found -> {
            if (found.isEmpty() || storefrontOnly && !found.get().scope().equals(Roles.STOREFRONT)) {
                return refused();
            }
            ApiTokens.Entry api = found.get();
            apiTokens.used(api);
            return Uni.createFrom().item(identity(roles(api.scope()),
                    new Caller(Caller.Kind.ORGANIZER, api.organizerId(), api.eventIds(), api.id(), api.prefix(),
                            api.channel())));
        });
    }

    /**
     * The roles of the token in an {@code Authorization} header, without waiting: a configured token, or an
     * organizer's this replica knows; empty for none or an unknown one. For routes outside the resources (metrics).
     */
    Optional<Set<String>> rolesOf(String authorization) {
        String token = authorization == null ? null : tokenOf(authorization);
        if (token == null) {
            return Optional.empty();
        }
        Optional<String> prefix = ApiTokens.prefixOf(token);
        return prefix.isEmpty()
                ? Optional.ofNullable(configured(token)).map(Configured::roles)
                : admitted(prefix.get(), token).map(entry -> roles(entry.scope()));
    }

    /** The token of a bearer {@code Authorization} header; null for another scheme. */
    private static String tokenOf(String authorization) {
        return authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())
                ? authorization.substring(BEARER.length()).trim()
                : null;
    }

    /** The organizer's token with this prefix this replica knows, if {@code token} is its secret. */
    private Optional<ApiTokens.Entry> admitted(String prefix, String token) {
        return apiTokens.known(prefix).filter(entry -> apiTokens.admits(entry, token));
    }

    private static Set<String> roles(String scope) {
        return switch (scope) {
            case Roles.ADMIN -> Set.of(Roles.ADMIN, Roles.STOREFRONT, Roles.CHECKIN);
            case Roles.CHECKIN -> Set.of(Roles.CHECKIN);
            default -> Set.of(Roles.STOREFRONT);
        };
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return Uni.createFrom()
                .item(new ChallengeData(401, "WWW-Authenticate", "Bearer realm=\"inventory\""));
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of();
    }

    private static Uni<SecurityIdentity> refused() {
        return Uni.createFrom().failure(new AuthenticationFailedException("unknown bearer token"));
    }

    private static SecurityIdentity identity(Set<String> roles, Caller caller) {
        return QuarkusSecurityIdentity.builder()
                .setPrincipal(new QuarkusPrincipal(roles.contains(Roles.ADMIN)
                        ? Roles.ADMIN
                        : roles.contains(Roles.CHECKIN) ? Roles.CHECKIN : Roles.STOREFRONT))
                .addRoles(roles).addAttributes(Map.of(Caller.ATTRIBUTE, caller)).build();
    }

    private Configured configured(String token) {
        byte[] presented = digest(token);
        Configured granted = null;
        for (Configured configured : tokens) {
            // No early exit: the time taken must not tell which token, or how much of one, matched.
            if (MessageDigest.isEqual(presented, configured.digest()) && granted == null) {
                granted = configured;
            }
        }
        return granted;
    }

    private static byte[] digest(String token) {
        return Sha256.of(token.trim());
    }
}
