package io.ticketing.reservations.problem;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

import jakarta.persistence.OptimisticLockException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;
import org.postgresql.util.PSQLException;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import io.vertx.ext.web.RoutingContext;

/** The one place where failures become {@code application/problem+json} responses. */
public class ProblemMapper {

    private static final Logger LOG = Logger.getLogger(ProblemMapper.class);
    private static final String UNIQUE_VIOLATION = "23505";

    @ServerExceptionMapper
    public Response apiException(ApiException e) {
        return respond(e);
    }

    public static Response respond(ApiException e) {
        Response.ResponseBuilder response = problem(e.toProblem());
        e.headers().forEach(response::header);
        return response.build();
    }

    /** The same problem, for what answers on Vert.x' router before any resource is chosen. */
    public static void respond(RoutingContext context, ObjectMapper json, ApiException e) {
        try {
            Problem problem = e.toProblem();
            e.headers().forEach(context.response()::putHeader);
            context.response().setStatusCode(problem.status()).putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
                    .end(json.writeValueAsString(problem));
        } catch (JsonProcessingException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    /**
     * Unknown paths, wrong methods and unsupported media types, as JAX-RS reports them; and bodies that are not JSON,
     * which Quarkus' reader reports as a bare 400 around Jackson's error.
     */
    @ServerExceptionMapper
    public Response webApplicationException(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        if (status == 400) {
            return respond(e.getCause() instanceof JsonProcessingException json
                    ? ValidationProblemMapper.invalid(json)
                    : new ValidationException("request", "is malformed"));
        }
        String code = switch (status) {
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            case 406 -> "not_acceptable";
            case 415 -> "unsupported_media_type";
            default -> status >= 500 ? "internal_error" : "bad_request";
        };
        Response.Status known = Response.Status.fromStatusCode(status);
        String title = known == null ? "Error" : known.getReasonPhrase();
        return problem(new Problem(title, status, title, code, null)).build();
    }

    /** No token, or one the service does not know ({@code auth/BearerTokens}). */
    @ServerExceptionMapper({UnauthorizedException.class, AuthenticationFailedException.class})
    public Response unauthenticated(RuntimeException e) {
        return respond(new ApiException(401, "unauthorized", "Unauthorized",
                "Send a valid token as 'Authorization: Bearer <token>'.")
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"inventory\""));
    }

    /** A token whose scope lacks the role the endpoint allows. */
    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e) {
        return respond(new ApiException(403, "forbidden", "Forbidden",
                "This token's scope does not allow this request; storefront tokens may only read availability,"
                        + " hold, release, check out and read an order; checkin tokens may only scan and read"
                        + " check-in lists."));
    }

    /** Two admins changed the same resource at once; the later flush lost. */
    @ServerExceptionMapper
    public Response optimisticLock(OptimisticLockException e) {
        return respond(new ApiException(412, "version_conflict", "Precondition Failed",
                "The resource changed while you were updating it; GET it again and retry with the new ETag."));
    }

    @ServerExceptionMapper
    public Response unexpected(Exception e) {
        Optional<Taken> taken = takenName(e);
        if (taken.isPresent()) {
            return respond(taken.get());
        }
        if (InventoryChanged.isCause(e)) {
            return respond(new InventoryChanged());
        }
        if (TransactionAborted.isCause(e)) {
            return respond(new TransactionAborted());
        }
        if (lostTheDatabase(e)) {
            LOG.warnf("the database did not answer: %s", e.getMessage());
            return respond(new ApiException(503, "database_unavailable", "Service Unavailable",
                    "The database did not answer. If this request changed something, it was either done or not"
                            + " done at all: retry it with the same Idempotency-Key.")
                    .retryAfter(Duration.ofSeconds(2)));
        }
        if (waitedTooLongForAConnection(e)) {
            return respond(overloaded());
        }
        LOG.error("unexpected failure", e);
        return problem(new Problem("Internal Server Error", 500, "The request failed unexpectedly.",
                "internal_error", null)).build();
    }

    /** No request thread or connection within a short bound: refused early, so that answer times stay bounded. */
    public static ApiException overloaded() {
        return new ApiException(503, "overloaded", "Too busy",
                "Too many requests at once; nothing was changed. Retry the request.").retryAfter(Duration.ofSeconds(1));
    }

    /**
     * The connection failed or PostgreSQL is shutting down or starting (SQLSTATE class 08, 57P01 to 57P03): an
     * outage, not a defect.
     */
    static boolean lostTheDatabase(Throwable e) {
        return anyCause(e, cause -> cause instanceof SQLException sql && sql.getSQLState() != null
                && (sql.getSQLState().startsWith("08") || sql.getSQLState().matches("57P0[123]")));
    }

    static boolean sqlState(Throwable e, String state) {
        return anyCause(e, cause -> cause instanceof SQLException sql && state.equals(sql.getSQLState()));
    }

    /**
     * A unique violation (SQLSTATE 23505) of a constraint behind a create's check for a taken name: the create raced
     * another past the check, and the client hears what the check says.
     */
    static Optional<Taken> takenName(Throwable e) {
        return firstCause(e, cause -> cause instanceof PSQLException sql && UNIQUE_VIOLATION.equals(sql.getSQLState())
                && sql.getServerErrorMessage() != null)
                .flatMap(cause -> Taken.byConstraint(((PSQLException) cause).getServerErrorMessage().getConstraint()));
    }

    private static boolean anyCause(Throwable e, Predicate<Throwable> test) {
        return firstCause(e, test).isPresent();
    }

    /**
     * The first of {@code e} and everything behind it that passes {@code test}: causes, and suppressed exceptions
     * too, where the transaction manager puts the driver's error when a commit fails.
     */
    private static Optional<Throwable> firstCause(Throwable e, Predicate<Throwable> test) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Throwable> next = new ArrayDeque<>(List.of(e));
        while (!next.isEmpty()) {
            Throwable cause = next.pop();
            if (!seen.add(cause)) {
                continue;
            }
            if (test.test(cause)) {
                return Optional.of(cause);
            }
            if (cause.getCause() != null) {
                next.push(cause.getCause());
            }
            next.addAll(List.of(cause.getSuppressed()));
        }
        return Optional.empty();
    }

    /**
     * Every database connection of this replica stayed busy for the pool's acquisition timeout: the replica
     * is overloaded, which the client should hear as 503 with Retry-After, not as a bug. The pool (Agroal)
     * reports it as an SQLException caused by a TimeoutException, or, when the wait ran out in its queue, as one
     * with this message and no cause.
     */
    static boolean waitedTooLongForAConnection(Throwable e) {
        return anyCause(e, cause -> cause instanceof SQLException && (cause.getCause() instanceof TimeoutException
                || String.valueOf(cause.getMessage()).startsWith("Sorry, acquisition timeout")));
    }

    private static Response.ResponseBuilder problem(Problem problem) {
        return Response.status(problem.status()).type(Problem.MEDIA_TYPE).entity(problem);
    }
}
