package io.ticketing.reservations.tracing;

import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;

/**
 * The availability stream takes a storefront token as {@code ?access_token=} (contract section 8): a server span
 * records the query it was called with, so the token is taken out of it as the span starts, before any exporter
 * can see it. Quarkus adds every {@link SpanProcessor} bean to the tracer.
 */
@ApplicationScoped
public class NoTokensInSpans implements SpanProcessor {

    private static final AttributeKey<String> URL_QUERY = AttributeKey.stringKey("url.query");
    private static final AttributeKey<String> URL_FULL = AttributeKey.stringKey("url.full");
    private static final Pattern TOKEN = Pattern.compile("(?i)(access_token=)[^&#]*");

    @Override
    public void onStart(Context parentContext, ReadWriteSpan span) {
        scrub(span, URL_QUERY);
        scrub(span, URL_FULL);
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
