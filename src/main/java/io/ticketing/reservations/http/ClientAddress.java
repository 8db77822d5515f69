package io.ticketing.reservations.http;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;

/**
 * The address of the client a request comes from: the one a trusted proxy reports in {@code X-Forwarded-For}
 * ({@code TRUSTED_PROXIES}, the ingress controllers' addresses), else the connection's peer. What limits queue
 * tickets per client and keeps one browser's {@code Idempotency-Key} records from another's (contract section 8).
 */
@ApplicationScoped
public class ClientAddress {

    private final CurrentVertxRequest request;

    ClientAddress(CurrentVertxRequest request) {
        this.request = request;
    }

    /** The client's address, or "" outside an HTTP request. */
    public String current() {
        RoutingContext context = request.getCurrent();
        SocketAddress address = context == null ? null : context.request().remoteAddress();
        return address == null || address.host() == null ? "" : address.host();
    }
}
