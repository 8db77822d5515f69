package io.ticketing.reservations.availability;

import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ResourceInfo;

import org.jboss.resteasy.reactive.server.ServerResponseFilter;

import io.ticketing.reservations.http.PathParams;

/**
 * Every request that changed an event on this replica (any but a read, answered with success, unless its resource is
 * {@link AvailabilityUnchanged}) tells the storefront's kept availability of that event to read afresh: a buyer sees
 * their own hold at once.
 */
class ChangedEvents {

    private final StorefrontAvailability availability;

    ChangedEvents(StorefrontAvailability availability) {
        this.availability = availability;
    }

    @ServerResponseFilter
    void changed(ContainerRequestContext request, ContainerResponseContext response, ResourceInfo resource) {
        if (HttpMethod.GET.equals(request.getMethod()) || response.getStatus() >= 400
                || resource.getResourceClass() == null
                || resource.getResourceClass().isAnnotationPresent(AvailabilityUnchanged.class)) {
            return;
        }
        String slug = PathParams.of("event");
        if (slug != null) {
            availability.changed(slug);
        }
    }
}
