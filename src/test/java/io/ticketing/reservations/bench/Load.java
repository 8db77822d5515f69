package io.ticketing.reservations.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
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

    /** Latencies of whole operations, and the p99 of the single HTTP requests they are made of. */
    record Result(int clients, long operations, long errors, double seconds, long p50Micros, long p99Micros,
            long requestP99Micros) {
        double perSecond() {
            return operations / seconds;
        }
    }

    /** A storefront: its own keep-alive connection, its random choices, and the run's refusal count. */
    static final class Client implements AutoCloseable {

        private final Http http;
        final java.util.Random random;
        final LongAdder refusals;
        private final long seed;
        private long[] requestMicros = new long[1 << 16];
        private int requests;
        private long nextSlot;

        Client(String base, String token, long seed, LongAdder refusals) {
            this.http = new Http(base, token);
            this.random = new java.util.Random(seed);
            this.seed = seed;
            this.refusals = refusals;
        }

        Http.Response post(String path, String json) throws Exception {
            return send("POST", path, json);
        }

        Http.Response get(String path) throws Exception {
            return send("GET", path, null);
        }

        /** A POST with {@code token} rather than the buyer's (a scanner's at a gate), timed as the others. */
        Http.Response postAs(String token, String path, String json) throws Exception {
            long started = System.nanoTime();
            Http.Response response = http.postAs(token, path, json);
            record((System.nanoTime() - started) / 1000);
            return response;
        }

        Http.Response delete(String path) throws Exception {
            return send("DELETE", path, null);
        }

        private Http.Response send(String method, String path, String json) throws Exception {
            long started = System.nanoTime();
            Http.Response response = http.send(method, path, json);
            record((System.nanoTime() - started) / 1000);
            return response;
        }

        private void record(long micros) {
            if (requests == requestMicros.length) {
                requestMicros = Arrays.copyOf(requestMicros, requests * 2);
            }
            requestMicros[requests++] = micros;
        }

        /** The latencies of the requests since the last call, which forgets them. */
        long[] takeRequestLatencies() {
            long[] taken = Arrays.copyOf(requestMicros, requests);
            requests = 0;
            return taken;
        }

        /**
         * Waits for this client's next slot, one every {@code periodMillis}, at its own point of the period, so that
         * paced clients (gates at the doors) do not all send at once. That point is drawn from the seed by
         * {@link SplittableRandom}, which mixes it: the first draw of {@link java.util.Random} hardly differs between
         * neighbouring seeds (0.58 to 0.77 of the period for the 64 gates' seeds). A client that missed its slot (after
         * a slow answer, or the pause between a warm-up and the measurement) waits for its next one: had it sent at
         * once, every late gate would send at the same moment and stay in step after. Both had sent the 64 gates in
         * bursts, each burst's scans queueing behind each other. A pace, not a synchronisation: the operations' own
         * latencies are the requests' ({@link #takeRequestLatencies}), which exclude the wait.
         */
        void paceTo(long periodMillis) throws InterruptedException {
            long now = System.nanoTime();
            long period = periodMillis * 1_000_000;
            nextSlot = nextSlot == 0
                    ? now + (long) (new SplittableRandom(seed).nextDouble() * period)
                    : nextSlot + period;
            if (nextSlot < now) {
                nextSlot += ((now - nextSlot) / period + 1) * period;
            }
            Thread.sleep((nextSlot - now) / 1_000_000, (int) ((nextSlot - now) % 1_000_000));
        }

        /** The cart id from a create-cart response. */
        String newCart(String event) throws Exception {
            String body = post("/api/v1/events/" + event + "/carts", null).body();
            return body.substring(body.indexOf("\"id\":\"") + 6, body.indexOf('"', body.indexOf("\"id\":\"") + 6));
        }

        /** 2xx is success; 409 is a refusal the buyer sees (sold out); anything else is an error. */
        boolean accepted(Http.Response response) {
            if (response.status() == 409) {
                refusals.increment();
                return true;
            }
            return response.status() / 100 == 2;
        }

        @Override
        public void close() {
            http.close();
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
        perClient.forEach(Client::takeRequestLatencies);
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
        long[] requests = perClient.stream().limit(clients).flatMapToLong(client -> Arrays.stream(
                client.takeRequestLatencies())).sorted().toArray();
        long operations = Arrays.stream(counts).sum();
        return new Result(clients, operations, Arrays.stream(errors).sum(), seconds, percentile(all, 0.50),
                percentile(all, 0.99), percentile(requests, 0.99));
    }

    private static long percentile(long[] sorted, double p) {
        return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
    }
}
