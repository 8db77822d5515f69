package io.ticketing.reservations.openapi;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.headers.Header;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;

/**
 * What many operations share, written once in {@code components} and referenced with {@code $ref}, so that the
 * document grows by an operation's own parts only: a reader meets each refusal and header once, and a generator
 * makes one type of each. A part is added at its first use, so that none is left unused.
 */
final class SharedComponents {

    private final Components components;
    /** The status of each shared refusal: a name must never stand for two. */
    private final Map<String, String> refusals = new HashMap<>();

    SharedComponents(Components components) {
        this.components = components;
    }

    /** The problem answer of {@code status} carrying one of {@code codes}, named after its codes. */
    APIResponse refusal(String status, Set<String> codes) {
        String name = ProblemResponses.name(codes);
        String named = refusals.putIfAbsent(name, status);
        if (named == null) {
            components.addResponse(name, ProblemResponses.of(status, codes));
        } else if (!named.equals(status)) {
            throw new IllegalStateException(name + " is both " + named + " and " + status);
        }
        return OASFactory.createAPIResponse().ref(name);
    }

    Parameter parameter(String name, Supplier<Parameter> parameter) {
        if (components.getParameters() == null || !components.getParameters().containsKey(name)) {
            components.addParameter(name, parameter.get());
        }
        return OASFactory.createParameter().ref(name);
    }

    Header header(String name, Supplier<Header> header) {
        if (components.getHeaders() == null || !components.getHeaders().containsKey(name)) {
            components.addHeader(name, header.get());
        }
        return OASFactory.createHeader().ref(name);
    }
}
