package io.ticketing.reservations.auth;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.HttpHeaders;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import io.ticketing.reservations.problem.ApiException;

/** Checks the bearer token of every request to a method annotated with {@link RequiresScope}. */
public class BearerTokenFilter {

    private static final String BEARER = "Bearer ";

    /** Digests of the configured tokens, so every comparison takes the same time whatever the token. */
    private final List<Map.Entry<byte[], Scope>> tokens = new ArrayList<>();

    BearerTokenFilter(AuthConfig config) {
        config.adminTokens().orElse(List.of()).forEach(token -> tokens.add(Map.entry(digest(token), Scope.ADMIN)));
        config.storefrontTokens().orElse(List.of())
                .forEach(token -> tokens.add(Map.entry(digest(token), Scope.STOREFRONT)));
    }

    /**
     * On the event loop, before anything else: a caller without a valid token takes no request thread. Non-blocking
     * filters must come before every blocking one, Quarkus' own included, hence priorities from 100.
     */
    @ServerRequestFilter(nonBlocking = true, priority = 100)
    public void authorize(ContainerRequestContext request, ResourceInfo resource) {
        RequiresScope required = resource.getResourceMethod().getAnnotation(RequiresScope.class);
        if (required == null) {
            required = resource.getResourceClass().getAnnotation(RequiresScope.class);
        }
        if (required == null) {
            return;
        }
        Scope granted = scopeOf(request.getHeaderString(HttpHeaders.AUTHORIZATION));
        if (granted == null) {
            throw new ApiException(401, "unauthorized", "Unauthorized",
                    "Send a valid token as 'Authorization: Bearer <token>'.")
                    .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"inventory\"");
        }
        if (!granted.grants(required.value())) {
            throw new ApiException(403, "forbidden", "Forbidden",
                    "This token's scope does not allow this request; it needs the " + required.value()
                            .name().toLowerCase() + " scope.");
        }
    }

    private Scope scopeOf(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return null;
        }
        byte[] presented = digest(authorization.substring(BEARER.length()).trim());
        Scope granted = null;
        for (Map.Entry<byte[], Scope> token : tokens) {
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
