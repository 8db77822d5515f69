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

    private Crowd() {
    }

    /** What one client got: the status and, for problems, the code. */
    public record Outcome(int status, String code, String body) {
    }

    public static List<Outcome> run(int clients, IntFunction<Response> request) {
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
                    Response response = request.apply(client);
                    String body = response.asString();
                    String code = body.contains("\"code\"") ? response.jsonPath().getString("code") : null;
                    return new Outcome(response.statusCode(), code, body);
                }));
            }
            if (!ready.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("clients did not start");
            }
            go.countDown();
            List<Outcome> outcomes = new ArrayList<>();
            for (Future<Outcome> future : futures) {
                outcomes.add(future.get(60, TimeUnit.SECONDS));
            }
            return outcomes;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        } finally {
            threads.shutdownNow();
        }
    }

    public static long count(List<Outcome> outcomes, int status) {
        return outcomes.stream().filter(outcome -> outcome.status() == status).count();
    }

    public static long count(List<Outcome> outcomes, String code) {
        return outcomes.stream().filter(outcome -> code.equals(outcome.code())).count();
    }
}
