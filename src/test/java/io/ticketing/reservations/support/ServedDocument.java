package io.ticketing.reservations.support;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.stream.Collectors;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.report.ValidationReport;
import com.atlassian.oai.validator.restassured.RestAssuredRequest;
import com.atlassian.oai.validator.restassured.RestAssuredResponse;

import io.quarkus.test.junit.callback.QuarkusTestBeforeEachCallback;
import io.quarkus.test.junit.callback.QuarkusTestMethodContext;
import io.restassured.RestAssured;
import io.restassured.filter.Filter;
import io.restassured.filter.FilterContext;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;

/**
 * Every request and response of every test, checked against the OpenAPI document the running service serves at
 * {@code /q/openapi}, so that the document cannot drift from the code: a response must be exactly as documented
 * (its status, headers and body), and a request the document does not allow must be refused with a 4xx. Installed
 * once, before the first test, as a global REST Assured filter. CORS preflights belong to the HTTP layer and
 * are not operations of the document.
 */
public class ServedDocument implements QuarkusTestBeforeEachCallback, Filter {

    private static volatile boolean installed;

    private volatile OpenApiInteractionValidator validator;

    @Override
    public void beforeEach(QuarkusTestMethodContext context) {
        synchronized (ServedDocument.class) {
            if (!installed) {
                RestAssured.filters(new ServedDocument());
                installed = true;
            }
        }
    }

    /** Read from the service under test at its first request, when its port is known. */
    private OpenApiInteractionValidator validator(URI service) {
        if (validator == null) {
            synchronized (this) {
                if (validator == null) {
                    try {
                        String document = HttpClient.newHttpClient().send(
                                HttpRequest.newBuilder(service.resolve("/q/openapi?format=json")).build(),
                                HttpResponse.BodyHandlers.ofString()).body();
                        validator = OpenApiInteractionValidator.createForInlineApiSpecification(document).build();
                    } catch (IOException | InterruptedException e) {
                        throw new IllegalStateException("could not read the served OpenAPI document", e);
                    }
                }
            }
        }
        return validator;
    }

    @Override
    public Response filter(FilterableRequestSpecification request, FilterableResponseSpecification responseSpec,
            FilterContext context) {
        Response response = context.next(request, responseSpec);
        URI uri = URI.create(request.getURI());
        String path = uri.getRawPath();
        if (!path.startsWith("/api/v1/") || request.getMethod().equals("OPTIONS")) {
            return response;
        }
        OpenApiInteractionValidator validator = validator(uri);
        if (request.getHeaders().hasHeaderWithName("Origin") && response.statusCode() == 403
                && response.asString().isEmpty()) {
            return response; // a refused cross-origin call: the browser shows the page no answer to document
        }
        Request asSent = RestAssuredRequest.of(request);
        ValidationReport requestReport = validator.validateRequest(asSent);
        if (requestReport.getMessages().stream().anyMatch(m -> m.getKey().startsWith("validation.request.path.missing")
                || m.getKey().startsWith("validation.request.operation.notAllowed"))) {
            if (response.statusCode() != 404 && response.statusCode() != 405 && response.statusCode() != 414
                    && response.statusCode() != 400) {
                throw new AssertionError("undocumented " + request.getMethod() + " " + path + " answered "
                        + response.statusCode());
            }
            return response;
        }
        ValidationReport responseReport = validator.validateResponse(path, asSent.getMethod(),
                RestAssuredResponse.of(response));
        if (responseReport.hasErrors()) {
            throw new AssertionError("the answer to " + request.getMethod() + " " + path + " (" + response.statusCode()
                    + ") is not as the served OpenAPI document says:\n" + describe(responseReport) + "\n"
                    + response.asString());
        }
        if (requestReport.hasErrors() && response.statusCode() < 400) {
            throw new AssertionError("the served OpenAPI document refuses " + request.getMethod() + " " + path
                    + ", but the service answered " + response.statusCode() + ":\n" + describe(requestReport));
        }
        return response;
    }

    private static String describe(ValidationReport report) {
        return report.getMessages().stream().filter(m -> m.getLevel() == ValidationReport.Level.ERROR)
                .map(m -> "  " + m.getKey() + ": " + m.getMessage()).collect(Collectors.joining("\n"));
    }
}
