package io.ticketing.reservations.webhooks;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpServer;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * A real webhook receiver on a loopback port, started before the app so that its URL is the app's
 * {@code webhook.url}. It records every attempt and can be told to fail the next few.
 */
public class WebhookReceiver implements QuarkusTestResourceLifecycleManager {

    /** A signing secret as the Standard Webhooks convention writes it. */
    static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

    static volatile WebhookReceiver running;

    /** One POST as it arrived, and the status the receiver answered. */
    record Attempt(String id, String timestamp, String signature, String body, int status, long receivedNanos) {
    }

    final Queue<Attempt> attempts = new ConcurrentLinkedQueue<>();
    final AtomicInteger failNext = new AtomicInteger();
    /** The next requests are held, unanswered, until {@link #release} opens: a receiver that hangs. */
    final AtomicInteger holdNext = new AtomicInteger();
    volatile CountDownLatch release = new CountDownLatch(0);
    /** Counted down as each held request arrives. */
    volatile CountDownLatch held = new CountDownLatch(0);
    private HttpServer server;

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/hooks", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            if (holdNext.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
                held.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            int status = failNext.getAndUpdate(left -> Math.max(0, left - 1)) > 0 ? 500 : 204;
            attempts.add(new Attempt(exchange.getRequestHeaders().getFirst("webhook-id"),
                    exchange.getRequestHeaders().getFirst("webhook-timestamp"),
                    exchange.getRequestHeaders().getFirst("webhook-signature"), body, status, System.nanoTime()));
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
        running = this;
        return Map.of("webhook.url", "http://127.0.0.1:" + server.getAddress().getPort() + "/hooks",
                "webhook.secret", SECRET);
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    List<Attempt> delivered() {
        return attempts.stream().filter(attempt -> attempt.status() == 204).toList();
    }
}
