package io.ticketing.reservations.problem;

import java.util.Comparator;
import java.util.List;

import jakarta.validation.ConstraintViolationException;
import jakarta.validation.Path;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;

/** Malformed JSON, wrong types and broken constraints: 400 {@code validation_failed} with the fields. */
public class ValidationProblemMapper {

    private static final PropertyNamingStrategies.SnakeCaseStrategy SNAKE_CASE = new PropertyNamingStrategies.SnakeCaseStrategy();

    @ServerExceptionMapper
    public Response constraintViolation(ConstraintViolationException e) {
        List<Problem.FieldError> errors = e.getConstraintViolations().stream()
                .map(violation -> new Problem.FieldError(field(violation.getPropertyPath()), violation.getMessage()))
                .sorted(Comparator.comparing(Problem.FieldError::field))
                .toList();
        return ProblemMapper.respond(new ValidationException(errors));
    }

    /** Declared for the exact type because Quarkus ships its own mapper for it, without the field. */
    @ServerExceptionMapper
    public Response mismatchedInput(MismatchedInputException e) {
        return unreadableJson(e);
    }

    @ServerExceptionMapper
    public Response unreadableJson(JsonProcessingException e) {
        return ProblemMapper.respond(invalid(e));
    }

    /**
     * The body Jackson could not read, naming the field it stopped at, or for a body that is not JSON at all, where
     * in it.
     */
    static ValidationException invalid(JsonProcessingException e) {
        String field = e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()
                ? mapping.getPath().stream()
                        .map(reference -> reference.getFieldName() != null
                                ? reference.getFieldName()
                                : "[" + reference.getIndex() + "]")
                        .reduce((left, right) -> right.startsWith("[") ? left + right : left + "." + right)
                        .orElse("")
                : "";
        String message = e instanceof JsonMappingException
                ? "has the wrong type or is not allowed"
                : "is not valid JSON" + (e.getLocation() == null
                        ? ""
                        : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr());
        return new ValidationException(List.of(new Problem.FieldError(field.isEmpty() ? "body" : field, message)));
    }

    /** Method parameters appear as method.argN; the client knows them as body fields in snake_case. */
    private static String field(Path path) {
        StringBuilder field = new StringBuilder();
        for (Path.Node node : path) {
            switch (node.getKind()) {
                case METHOD, PARAMETER, RETURN_VALUE -> {
                }
                default -> {
                    if (node.getIndex() != null && field.length() > 0) {
                        field.append('[').append(node.getIndex()).append(']');
                    }
                    if (node.getName() != null) {
                        field.append(field.length() > 0 ? "." : "").append(SNAKE_CASE.translate(node.getName()));
                    }
                }
            }
        }
        return field.length() == 0 ? "body" : field.toString();
    }
}
