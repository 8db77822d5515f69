package io.ticketing.reservations.http;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.netty.handler.ipfilter.IpFilterRuleType;
import io.netty.handler.ipfilter.IpSubnetFilterRule;
import io.netty.util.NetUtil;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;

/**
 * The address of the client a request comes from, as far as it can be trusted: the connection's peer, unless that
 * peer is a trusted proxy ({@code http.trusted-proxies}, {@code TRUSTED_PROXIES}: the ingress controllers'
 * addresses or ranges), whose {@code X-Forwarded-For} is then read from the right, skipping trusted proxies: the
 * first address no trusted proxy added is the one a client could not choose, whether the proxies in front set the
 * header or append to it. What limits queue tickets and waiting list entries per client (contract sections 8 and
 * 9); read only there, so every other request pays nothing for it.
 */
@ApplicationScoped
public class ClientAddress {

    private static final String FORWARDED_FOR = "X-Forwarded-For";

    private final CurrentVertxRequest request;
    private final List<IpSubnetFilterRule> trustedProxies;

    ClientAddress(CurrentVertxRequest request,
            @ConfigProperty(name = "http.trusted-proxies") List<String> trustedProxies) {
        this.request = request;
        this.trustedProxies = trustedProxies.stream().map(ClientAddress::range).toList();
    }

    /** The client's address, or "" outside an HTTP request. */
    public String current() {
        RoutingContext context = request.getCurrent();
        SocketAddress peer = context == null ? null : context.request().remoteAddress();
        if (peer == null || peer.host() == null) {
            return "";
        }
        String client = peer.host();
        List<String> forwarded = context.request().headers().getAll(FORWARDED_FOR);
        for (int header = forwarded.size() - 1; header >= 0 && trusted(client); header--) {
            String[] hops = forwarded.get(header).split(",");
            for (int hop = hops.length - 1; hop >= 0 && trusted(client); hop--) {
                String address = hops[hop].strip();
                if (!address.isEmpty()) {
                    client = address;
                }
            }
        }
        return client;
    }

    private boolean trusted(String address) {
        byte[] bytes = NetUtil.createByteArrayFromIpAddressString(address);
        if (bytes == null) {
            return false;
        }
        try {
            InetSocketAddress socket = new InetSocketAddress(InetAddress.getByAddress(bytes), 0);
            return trustedProxies.stream().anyMatch(range -> range.matches(socket));
        } catch (UnknownHostException impossible) {
            return false;
        }
    }

    /** An address ({@code 127.0.0.1}, {@code ::1}) or a range ({@code 10.0.0.0/8}). */
    private static IpSubnetFilterRule range(String proxy) {
        String[] parts = proxy.strip().split("/", 2);
        byte[] bytes = NetUtil.createByteArrayFromIpAddressString(parts[0]);
        if (bytes == null) {
            throw new IllegalArgumentException("http.trusted-proxies: '" + proxy + "' is not an address or a range");
        }
        int prefix = parts.length == 2 ? Integer.parseInt(parts[1]) : bytes.length * 8;
        return new IpSubnetFilterRule(parts[0], prefix, IpFilterRuleType.ACCEPT);
    }
}
