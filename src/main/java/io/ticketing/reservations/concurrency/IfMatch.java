package io.ticketing.reservations.concurrency;

import jakarta.ws.rs.core.EntityTag;
import jakarta.ws.rs.core.Request;

import io.ticketing.reservations.problem.ApiException;

/**
 * Optimistic concurrency for admin updates: a resource's {@code version} is its ETag, and a PATCH must send it back
 * in {@code If-Match}. Without it: 428; with a stale one: 412, and nothing changes. The header is compared by
 * JAX-RS ({@link Request#evaluatePreconditions(EntityTag)}, strong comparison as RFC 9110 says) with the version
 * the service reads inside its transaction.
 */
public final class IfMatch {

    private final Request request;

    private IfMatch(Request request) {
        this.request = request;
    }

    /** The PATCH's precondition, from its {@code If-Match} header. */
    public static IfMatch required(Request request, String ifMatch) {
        if (ifMatch == null || ifMatch.isBlank()) {
            throw new ApiException(428, "precondition_required", "Precondition Required",
                    "Send the resource's current ETag in If-Match; GET the resource to learn it.");
        }
        return new IfMatch(request);
    }

    /** A PUT's precondition if it sends one: a PUT replaces the whole, so it may go without. */
    public static IfMatch optional(Request request, String ifMatch) {
        return new IfMatch(ifMatch == null || ifMatch.isBlank() ? null : request);
    }

    /** Fails unless the stored version is the one the client saw. */
    public void check(long currentVersion) {
        if (request != null && request.evaluatePreconditions(new EntityTag(Long.toString(currentVersion))) != null) {
            throw new ApiException(412, "version_conflict", "Precondition Failed",
                    "The resource changed since you read it; GET it again and retry with the new ETag.");
        }
    }

    public static String etag(long version) {
        return new EntityTag(Long.toString(version)).toString();
    }
}
