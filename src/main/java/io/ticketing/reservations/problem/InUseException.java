package io.ticketing.reservations.problem;

/** 409 {@code in_use}: a change would undo what was sold, held or redeemed through a resource. */
public class InUseException extends ApiException {

    public InUseException(String detail) {
        super(409, "in_use", "Conflict", detail);
    }
}
