package io.ticketing.reservations.concurrency;

import io.ticketing.reservations.problem.ApiException;

/**
 * Optimistic concurrency for admin updates: a resource's {@code version} is its ETag, and a PATCH must
 * send it back in {@code If-Match}. Without it: 428; with a stale one: 412, and nothing changes.
 */
public final class IfMatch {

    private IfMatch() {
    }

    /** The version a PATCH expects, from its If-Match header. */
    public static long expectedVersion(String ifMatch) {
        if (ifMatch == null || ifMatch.isBlank()) {
            throw new ApiException(428, "precondition_required", "Precondition Required",
                    "Send the resource's current ETag in If-Match; GET the resource to learn it.");
        }
        String tag = ifMatch.trim();
        if (tag.startsWith("W/")) {
            tag = tag.substring(2);
        }
        tag = tag.replace("\"", "");
        try {
            return Long.parseLong(tag);
        } catch (NumberFormatException e) {
            throw conflict();
        }
    }

    /** Fails unless the stored version is the one the client saw. */
    public static void check(long expected, long current) {
        if (expected != current) {
            throw conflict();
        }
    }

    public static String etag(long version) {
        return "\"" + version + "\"";
    }

    private static ApiException conflict() {
        return new ApiException(412, "version_conflict", "Precondition Failed",
                "The resource changed since you read it; GET it again and retry with the new ETag.");
    }
}
