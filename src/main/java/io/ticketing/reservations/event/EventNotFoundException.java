package io.ticketing.reservations.event;

import io.ticketing.reservations.problem.ApiException;

public class EventNotFoundException extends ApiException {

    public EventNotFoundException(String slug) {
        super(404, "not_found", "Not Found", "No event with slug '" + slug + "'.");
    }
}
