package io.ticketing.reservations.problem;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A failure the client should see: a fixed HTTP status and machine-readable {@code code}, rendered as
 * {@code application/problem+json} by {@link ProblemMapper}. Throwing it rolls the transaction back.
 */
public class ApiException extends RuntimeException {

    private final int status;
    private final String code;
    private final String title;
    private List<Problem.FieldError> errors;
    private final Map<String, Object> extensions = new LinkedHashMap<>();
    private final Map<String, String> headers = new LinkedHashMap<>();

    public ApiException(int status, String code, String title, String detail) {
        super(detail, null, false, false);
        this.status = status;
        this.code = code;
        this.title = title;
    }

    protected ApiException errors(List<Problem.FieldError> errors) {
        this.errors = List.copyOf(errors);
        return this;
    }

    public ApiException retryAfter(Duration retryAfter) {
        return header("Retry-After", Long.toString(Math.max(1, retryAfter.toSeconds())));
    }

    /** A response header the client needs to act on the problem, such as Retry-After or WWW-Authenticate. */
    public ApiException header(String name, String value) {
        headers.put(name, value);
        return this;
    }

    /** Adds an extension member to the problem document, named in snake_case. */
    protected ApiException with(String member, Object value) {
        extensions.put(member, value);
        return this;
    }

    public String code() {
        return code;
    }

    public Map<String, String> headers() {
        return Map.copyOf(headers);
    }

    public Problem toProblem() {
        return new Problem("about:blank", title, status, getMessage(), code, errors, Map.copyOf(extensions));
    }
}
