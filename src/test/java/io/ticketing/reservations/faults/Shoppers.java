package io.ticketing.reservations.faults;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.ticketing.reservations.bench.Service;

/**
 * Storefronts buying as a careful client does: every POST carries an {@code Idempotency-Key}, and an answer that
 * leaves the outcome open (a 5xx, {@code idempotency_key_in_use}, a cut connection, a timeout) is retried with the
 * same key and body, on the other replica if this one stopped answering, until it gets a final answer. Every answer
 * is counted by status, and what the buyers were told they got is kept for the invariants.
 */
final class Shoppers {

    private static final Pattern ID = Pattern.compile("\"id\":\"([^\"]+)\"");
    private static final Pattern CODE = Pattern.compile("\"code\":\"([^\"]+)\"");
    private static final Duration GIVE_UP_AFTER = Duration.ofSeconds(90);

    /** What a buyer was answered, and when ({@link System#nanoTime}), for the checks. */
    record Bought(String cart, String orderCode, long answeredAt) {
    }

    final Map<String, LongAdder> byStatus = new ConcurrentHashMap<>();
    final ConcurrentLinkedQueue<Bought> answeredOrders = new ConcurrentLinkedQueue<>();
    final ConcurrentLinkedQueue<String> answeredAdds = new ConcurrentLinkedQueue<>();
    final List<Long> latenciesMicros = Collections.synchronizedList(new ArrayList<>());
    /** The longest a POST took from its first attempt to its final answer, retries included. */
    final AtomicLong longestResolutionMillis = new AtomicLong();
    /** The slowest lock_timeout answer: that bound is promised end to end. */
    final AtomicLong slowestLockTimeoutMillis = new AtomicLong();
    final LongAdder unresolved = new LongAdder();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2))
            .version(HttpClient.Version.HTTP_1_1).build();
    private final List<String> replicas;
    private final String event;
    private final IntFunction<String> position;
    private final AtomicBoolean stopping = new AtomicBoolean();
    private CountDownLatch done;

    /** {@code position} gives a client's next position (a JSON object) from a random number. */
    Shoppers(List<Service> replicas, String event, IntFunction<String> position) {
        this.replicas = replicas.stream().map(replica -> replica.base).toList();
        this.event = event;
        this.position = position;
    }

    /** Starts {@code clients} buyers, each on its own thread, buying until {@link #finish}. */
    void start(int clients) {
        done = new CountDownLatch(clients);
        for (int i = 0; i < clients; i++) {
            int client = i;
            Thread buyer = new Thread(() -> {
                Random random = new Random(client);
                int replica = client % replicas.size();
                try {
                    while (!stopping.get()) {
                        replica = buyOnce(replica, random);
                    }
                } finally {
                    done.countDown();
                }
            });
            buyer.setDaemon(true);
            buyer.start();
        }
    }

    /** Lets every buyer finish the purchase it is in, and waits for them. */
    void finish() throws InterruptedException {
        stopping.set(true);
        done.await();
    }

    /** Create a cart, add one ticket, check out; returns the replica the buyer ended on. */
    private int buyOnce(int replica, Random random) {
        Outcome cart = post(replica, "/api/v1/events/" + event + "/carts", null);
        if (cart.status() != 201) {
            return cart.replica();
        }
        String cartId = first(ID, cart.body()).orElseThrow();
        Outcome added = post(cart.replica(), "/api/v1/events/" + event + "/carts/" + cartId + "/positions",
                "{\"positions\":[" + position.apply(random.nextInt(Integer.MAX_VALUE)) + "]}");
        if (added.status() != 201) {
            return added.replica();
        }
        answeredAdds.add(cartId);
        Outcome order = post(added.replica(), "/api/v1/events/" + event + "/orders",
                "{\"cart_id\":\"" + cartId + "\",\"email\":\"buyer@example.com\"}");
        if (order.status() == 201) {
            answeredOrders.add(new Bought(cartId, first(CODE, order.body()).orElseThrow(), System.nanoTime()));
        }
        return order.replica();
    }

    record Outcome(int status, String body, int replica) {
    }

    /** One POST, retried with its key until its outcome is known. */
    Outcome post(int replica, String path, String json) {
        String key = UUID.randomUUID().toString();
        long first = System.nanoTime();
        long deadline = first + GIVE_UP_AFTER.toNanos();
        int current = replica;
        while (System.nanoTime() < deadline) {
            long started = System.nanoTime();
            try {
                HttpResponse<String> response = http
                        .send(HttpRequest.newBuilder(URI.create(replicas.get(current) + path))
                                .timeout(Duration.ofSeconds(10)).header("Authorization", "Bearer " + Service.STOREFRONT)
                                .header("Content-Type", "application/json").header("Idempotency-Key", key)
                                .POST(json == null
                                        ? HttpRequest.BodyPublishers.noBody()
                                        : HttpRequest.BodyPublishers.ofString(json))
                                .build(), HttpResponse.BodyHandlers.ofString());
                long tookMicros = (System.nanoTime() - started) / 1000;
                latenciesMicros.add(tookMicros);
                int status = response.statusCode();
                count(Integer.toString(status));
                if (response.body().contains("\"lock_timeout\"")) {
                    slowestLockTimeoutMillis.accumulateAndGet(tookMicros / 1000, Math::max);
                }
                if (status < 500 && !response.body().contains("idempotency_key_in_use")) {
                    longestResolutionMillis.accumulateAndGet((System.nanoTime() - first) / 1_000_000, Math::max);
                    return new Outcome(status, response.body(), current);
                }
                pause(response.headers().firstValue("Retry-After").map(Integer::parseInt).orElse(1));
            } catch (IOException e) {
                count("no answer");
                current = (current + 1) % replicas.size();
                pause(0);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        unresolved.increment();
        return new Outcome(0, "", current);
    }

    private void count(String status) {
        byStatus.computeIfAbsent(status, ignored -> new LongAdder()).increment();
    }

    private static void pause(int retryAfterSeconds) {
        try {
            Thread.sleep(retryAfterSeconds > 0 ? Math.min(retryAfterSeconds, 2) * 1000L : 200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Optional<String> first(Pattern pattern, String body) {
        Matcher matcher = pattern.matcher(body);
        return matcher.find() ? Optional.of(matcher.group(1)) : Optional.empty();
    }

    long count500() {
        return byStatus.entrySet().stream().filter(entry -> entry.getKey().startsWith("5") && !entry.getKey()
                .equals("503")).mapToLong(entry -> entry.getValue().sum()).sum();
    }

    String statuses() {
        return byStatus.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(entry -> entry.getKey() + ": " + entry.getValue().sum())
                .reduce((a, b) -> a + ", " + b).orElse("none");
    }

    long p99Millis() {
        List<Long> sorted;
        synchronized (latenciesMicros) {
            sorted = latenciesMicros.stream().sorted().toList();
        }
        return sorted.isEmpty() ? 0 : sorted.get((int) Math.min(sorted.size() - 1, sorted.size() * 0.99)) / 1000;
    }
}
