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
 * Quarkus Security's mechanism for the configured bearer tokens: a known token is an identity with its scope's
 * roles ({@link Roles}), which {@code @RolesAllowed} on the resources checks; no token is anonymous; an unknown
 * one fails. Tokens are compared as SHA-256 digests in constant time, every configured token every time.
 */
@ApplicationScoped
public class BearerTokens implements HttpAuthenticationMechanism {

    private static final String BEARER = "Bearer ";
    /**
     * The availability stream (contract section 8) also takes its token as {@code ?access_token=} (RFC 6750 section
     * 2.3), since a browser's EventSource cannot send headers. Only there: elsewhere a token in a URL would end up in
     * proxies' logs for nothing. The request log writes the path without the query.
     */
    private static final String STREAM_PATH = "/availability/stream";
    private static final String QUERY_TOKEN = "access_token";

    /** Digests of the configured tokens, with the roles each grants. */
    private final List<Map.Entry<byte[], Set<String>>> tokens = new ArrayList<>();

    BearerTokens(AuthConfig config) {
        config.adminTokens().orElse(List.of())
                .forEach(token -> tokens.add(Map.entry(digest(token), Set.of(Roles.ADMIN, Roles.STOREFRONT))));
        config.storefrontTokens().orElse(List.of())
                .forEach(token -> tokens.add(Map.entry(digest(token), Set.of(Roles.STOREFRONT))));
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identityProviders) {
        String authorization = context.request().getHeader(HttpHeaders.AUTHORIZATION);
        if (authorization == null && context.normalizedPath().endsWith(STREAM_PATH)) {
            String queryToken = context.request().getParam(QUERY_TOKEN);
            authorization = queryToken == null ? null : BEARER + queryToken;
        }
        if (authorization == null) {
            return Uni.createFrom().optional(Optional.empty());
        }
        Set<String> roles = rolesOf(authorization);
        if (roles == null) {
            return Uni.createFrom().failure(new AuthenticationFailedException("unknown bearer token"));
        }
        return Uni.createFrom().item(QuarkusSecurityIdentity.builder()
                .setPrincipal(new QuarkusPrincipal(roles.contains(Roles.ADMIN) ? Roles.ADMIN : Roles.STOREFRONT))
                .addRoles(roles).build());
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

    private Set<String> rolesOf(String authorization) {
        if (!authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return null;
        }
        byte[] presented = digest(authorization.substring(BEARER.length()));
        Set<String> granted = null;
        for (Map.Entry<byte[], Set<String>> token : tokens) {
            // No early exit: the time taken must not tell which token, or how much of one, matched.
            if (MessageDigest.isEqual(presented, token.getKey()) && granted == null) {
                granted = token.getValue();
            }
        }
        return granted;
    }

    private static byte[] digest(String token) {
        return Sha256.of(token.trim());
    }
}
