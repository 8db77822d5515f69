package io.ticketing.reservations.tracing;

import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.ticketing.reservations.http.RouteNames;

/**
 * No capability in a trace (contract sections 6 and 8): the availability stream takes a storefront token as
 * {@code ?access_token=}, and a server span records the query it was called with, so the token is taken out of it as
 * the span starts, before any exporter can see it; and it records the path, whose cart id or order code is taken out
 * the same way ({@link RouteNames#withoutValues}). Quarkus adds every {@link SpanProcessor} bean to the tracer.
 */
@ApplicationScoped
public class NoTokensInSpans implements SpanProcessor {

    private static final AttributeKey<String> URL_QUERY = AttributeKey.stringKey("url.query");
    private static final AttributeKey<String> URL_FULL = AttributeKey.stringKey("url.full");
    private static final AttributeKey<String> URL_PATH = AttributeKey.stringKey("url.path");
    private static final Pattern TOKEN = Pattern.compile("(?i)(access_token=)[^&#]*");

    @Override
    public void onStart(Context parentContext, ReadWriteSpan span) {
        scrub(span, URL_QUERY);
        scrub(span, URL_FULL);
        String path = span.getAttribute(URL_PATH);
        if (path != null) {
            // Its route is not known yet when the span starts; the span's name and http.route carry it when it ends.
            String named = RouteNames.withoutValues(path);
            span.setAttribute(URL_PATH, named);
            String full = span.getAttribute(URL_FULL);
            if (full != null) {
                span.setAttribute(URL_FULL, full.replace(path, named));
            }
        }
    }

    private static void scrub(ReadWriteSpan span, AttributeKey<String> key) {
        String value = span.getAttribute(key);
        if (value != null && TOKEN.matcher(value).find()) {
            span.setAttribute(key, TOKEN.matcher(value).replaceAll("$1REDACTED"));
        }
    }

    @Override
    public boolean isStartRequired() {
        return true;
    }

    @Override
    public void onEnd(ReadableSpan span) {
    }

    @Override
    public boolean isEndRequired() {
        return false;
    }

    @Override
    public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
    }
}
