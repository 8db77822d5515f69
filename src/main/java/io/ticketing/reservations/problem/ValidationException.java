package io.ticketing.reservations.problem;

import java.util.List;

/** Input the service will not accept: 400 {@code validation_failed}, listing each field and what is wrong. */
public class ValidationException extends ApiException {

    public ValidationException(List<Problem.FieldError> errors) {
        super(400, "validation_failed", "Bad Request", "The request is not valid; see errors.");
        errors(errors);
    }

    public ValidationException(String field, String message) {
        this(List.of(new Problem.FieldError(field, message)));
    }
}
