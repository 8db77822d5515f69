package io.ticketing.reservations.problem;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/** An RFC 9457 problem document with the service's machine-readable {@code code}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, String code, List<FieldError> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";

    public Problem(String title, int status, String detail, String code, List<FieldError> errors) {
        this("about:blank", title, status, detail, code, errors);
    }

    public record FieldError(String field, String message) {
    }
}
