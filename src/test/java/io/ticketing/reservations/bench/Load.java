package io.ticketing.reservations.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;

/**
 * A closed loop of {@code clients} threads, each doing one operation after another for a fixed time, with
 * latencies recorded per thread. Runs in the benchmark's own JVM, apart from the service.
 */
final class Load {

    /** One client's work: returns true if the operation succeeded or was a proper refusal (sold out). */
    interface Operation {
        boolean run(Client client, int clientIndex) throws Exception;
    }

    record Result(int clients, long operations, long errors, double seconds, long p50Micros, long p99Micros) {
        double perSecond() {
            return operations / seconds;
        }
    }

    /**
     * A storefront HTTP client; one per thread, on the shared connection pool of the JDK client. HTTP/1.1 with
     * keep-alive, as a storefront's backend pool talks: the JDK client's default, HTTP/2, would multiplex every
     * client over one connection and so through one of the service's event loops.
     */
    static final class Client {

        private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();

        private final String base;
        private final String token;
        final java.util.Random random;
        final LongAdder refusals;

        Client(String base, String token, long seed, LongAdder refusals) {
            this.base = base;
            this.token = token;
            this.random = new java.util.Random(seed);
            this.refusals = refusals;
        }

        HttpResponse<String> post(String path, String json) throws Exception {
            return HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                    .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(json == null ? "" : json)).build(),
                    HttpResponse.BodyHandlers.ofString());
        }

        /** The cart id from a create-cart response. */
        String newCart(String event) throws Exception {
            String body = post("/api/v1/events/" + event + "/carts", null).body();
            return body.substring(body.indexOf("\"id\":\"") + 6, body.indexOf('"', body.indexOf("\"id\":\"") + 6));
        }

        /** 2xx is success; 409 is a refusal the buyer sees (sold out); anything else is an error. */
        boolean accepted(HttpResponse<String> response) {
            if (response.statusCode() == 409) {
                refusals.increment();
                return true;
            }
            return response.statusCode() / 100 == 2;
        }
    }

    private Load() {
    }

    static Result run(int clients, Duration duration, List<Client> perClient, Operation operation)
            throws InterruptedException {
        long[][] latencies = new long[clients][];
        long[] counts = new long[clients];
        long[] errors = new long[clients];
        CountDownLatch ready = new CountDownLatch(clients);
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        long[] window = new long[2];
        for (int i = 0; i < clients; i++) {
            int index = i;
            Thread thread = new Thread(() -> {
                long[] mine = new long[1 << 16];
                int n = 0;
                ready.countDown();
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                long end = window[1];
                while (System.nanoTime() < end) {
                    long started = System.nanoTime();
                    boolean ok;
                    try {
                        ok = operation.run(perClient.get(index), index);
                    } catch (Exception e) {
                        ok = false;
                    }
                    long took = System.nanoTime() - started;
                    if (n == mine.length) {
                        mine = Arrays.copyOf(mine, n * 2);
                    }
                    mine[n++] = took / 1000;
                    if (!ok) {
                        errors[index]++;
                    }
                }
                latencies[index] = Arrays.copyOf(mine, n);
                counts[index] = n;
            }, "load-" + i);
            thread.start();
            threads.add(thread);
        }
        ready.await();
        window[0] = System.nanoTime();
        window[1] = window[0] + duration.toNanos();
        go.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        double seconds = (System.nanoTime() - window[0]) / 1e9;
        long[] all = Arrays.stream(latencies).flatMapToLong(Arrays::stream).sorted().toArray();
        long operations = Arrays.stream(counts).sum();
        return new Result(clients, operations, Arrays.stream(errors).sum(), seconds, percentile(all, 0.50),
                percentile(all, 0.99));
    }

    private static long percentile(long[] sorted, double p) {
        return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
    }
}
