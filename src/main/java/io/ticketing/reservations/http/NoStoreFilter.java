package io.ticketing.reservations.http;

import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.HttpHeaders;

import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/** {@code Cache-Control: no-store} on every response of a resource marked {@link PersonalData}, errors included. */
public class NoStoreFilter {

    @ServerResponseFilter
    public void noStore(ContainerResponseContext response, ResourceInfo resource) {
        if (resource.getResourceMethod() != null
                && (resource.getResourceMethod().isAnnotationPresent(PersonalData.class)
                        || resource.getResourceClass().isAnnotationPresent(PersonalData.class))) {
            response.getHeaders().putSingle(HttpHeaders.CACHE_CONTROL, "no-store");
        }
    }
}
