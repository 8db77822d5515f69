package io.ticketing.reservations.problem;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

/** An RFC 9457 problem document with the service's machine-readable {@code code}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, String code, List<FieldError> errors,
        @JsonIgnore Map<String, Object> extensions) {

    public static final String MEDIA_TYPE = "application/problem+json";

    public Problem(String title, int status, String detail, String code, List<FieldError> errors) {
        this("about:blank", title, status, detail, code, errors, Map.of());
    }

    /** RFC 9457 extension members, such as the {@code item_id} and {@code quota_id} that ran out. */
    @JsonAnyGetter
    public Map<String, Object> extensionMembers() {
        return extensions;
    }

    public record FieldError(String field, String message) {
    }
}
