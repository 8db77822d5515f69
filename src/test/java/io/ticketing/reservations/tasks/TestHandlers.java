package io.ticketing.reservations.tasks;

import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.inject.Singleton;

/** Task kinds that exist only in the tests, recording who ran what (singletons: the tests read their fields). */
final class TestHandlers {

    private TestHandlers() {
    }

    /** Records each run: the payload and the worker thread that ran it. */
    @Singleton
    static class Recording implements TaskHandler {

        final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();
        final Queue<String> workers = new ConcurrentLinkedQueue<>();
        volatile CountDownLatch done = new CountDownLatch(0);

        @Override
        public String kind() {
            return "test.record";
        }

        @Override
        public void run(String payload) {
            runs.computeIfAbsent(payload, key -> new AtomicInteger()).incrementAndGet();
            workers.add(Thread.currentThread().getName());
            done.countDown();
        }
    }

    /** Fails while the payload's number of failures is not used up: "fail:2:abc" fails twice. */
    @Singleton
    static class Flaky implements TaskHandler {

        final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();

        @Override
        public String kind() {
            return "test.flaky";
        }

        @Override
        public void run(String payload) {
            int failures = Integer.parseInt(payload.split(":")[1]);
            if (attempts.computeIfAbsent(payload, key -> new AtomicInteger()).incrementAndGet() <= failures) {
                throw new IllegalStateException("planned failure of " + payload);
            }
        }
    }

    /** Each run blocks until released: a slow webhook receiver. */
    @Singleton
    static class Slow implements TaskHandler {

        volatile CountDownLatch started = new CountDownLatch(1);
        volatile CountDownLatch release = new CountDownLatch(1);

        @Override
        public String kind() {
            return "test.slow";
        }

        @Override
        public void run(String payload) throws InterruptedException {
            started.countDown();
            release.await(30, TimeUnit.SECONDS);
        }
    }

    /** Its first run blocks until released, like a worker that hangs or dies mid-task. */
    @Singleton
    static class Stuck implements TaskHandler {

        final AtomicInteger runs = new AtomicInteger();
        final CountDownLatch firstStarted = new CountDownLatch(1);
        final CountDownLatch secondRan = new CountDownLatch(1);
        final CountDownLatch releaseFirst = new CountDownLatch(1);

        @Override
        public String kind() {
            return "test.stuck";
        }

        @Override
        public void run(String payload) throws InterruptedException {
            if (runs.incrementAndGet() == 1) {
                firstStarted.countDown();
                releaseFirst.await(60, TimeUnit.SECONDS);
            } else {
                secondRan.countDown();
            }
        }
    }
}
