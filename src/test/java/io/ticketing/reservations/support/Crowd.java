package io.ticketing.reservations.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import io.restassured.response.Response;

/** Many real HTTP clients, each on its own thread, released together by one latch. */
public final class Crowd {

    private static final int RETRIES = 8;
    private static final long RETRY_PAUSE_MS = 100;
    private static final long CROWD_SECONDS = 180;

    private Crowd() {
    }

    /** What one client got: the status and, for problems, the code. */
    public record Outcome(int status, String code, String body) {

        /** An answer's outcome, its problem code read only from a body that has one. */
        static Outcome of(int status, String body) {
            return new Outcome(status, body.contains("\"code\"") ? Json.text(body, "code") : null, body);
        }
    }

    public static List<Outcome> run(int clients, IntFunction<Response> request) {
        return runForOutcomes(clients, client -> {
            Response response = request.apply(client);
            return Outcome.of(response.statusCode(), response.asString());
        });
    }

    /** {@link #run} for clients that say what they got themselves (those of {@link PlainHttp}). */
    public static List<Outcome> runForOutcomes(int clients, IntFunction<Outcome> request) {
        ExecutorService threads = Executors.newFixedThreadPool(clients);
        CountDownLatch ready = new CountDownLatch(clients);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<Outcome>> futures = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                int client = i;
                futures.add(threads.submit(() -> {
                    ready.countDown();
                    go.await();
                    return request.apply(client);
                }));
            }
            if (!ready.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("clients did not start");
            }
            go.countDown();
            // One bound for the whole crowd, not a minute per client: sixteen gates through 200 tickets each took
            // 63 s in `./mvnw verify` on a day the machine ran a quarter slower, and timed out under a minute's.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CROWD_SECONDS);
            List<Outcome> outcomes = new ArrayList<>();
            for (Future<Outcome> future : futures) {
                outcomes.add(future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            }
            return outcomes;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * {@link #run}, each client sending one request and sending it again, as a client of the contract does, while
     * the answer is a retryable 503 with {@code Retry-After} (a lock timeout or the overload refusal on a busy
     * machine): races assert exact outcomes, which a slow machine must not turn into 503s.
     */
    public static List<Outcome> runRetrying(int clients, IntFunction<Response> request) {
        return run(clients, client -> {
            Response response = request.apply(client);
            for (int attempt = 1; attempt < RETRIES && retryable(response); attempt++) {
                try {
                    Thread.sleep(RETRY_PAUSE_MS * attempt); // a client's back-off, not a synchronisation
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return response;
                }
                response = request.apply(client);
            }
            return response;
        });
    }

    private static boolean retryable(Response response) {
        return response.statusCode() == 503 && response.header("Retry-After") != null;
    }

    public static long count(List<Outcome> outcomes, int status) {
        return outcomes.stream().filter(outcome -> outcome.status() == status).count();
    }

    public static long count(List<Outcome> outcomes, String code) {
        return outcomes.stream().filter(outcome -> code.equals(outcome.code())).count();
    }
}
