package io.ticketing.reservations.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * How many idle availability streams one replica holds (contract section 8): opens {@code bench.streams}
 * subscribers (e.g. {@code 1000,5000,10000}) to one event, step by step, each reading its first event, then makes
 * one sale and counts the subscribers that see it within two seconds; prints the service's memory at each step.
 */
final class Streams {

    private record Subscriber(Socket socket, BufferedReader in) {
    }

    private final Service service;
    private final Admin admin;

    Streams(Service service) {
        this.service = service;
        this.admin = new Admin(service.base, Service.ADMIN);
    }

    void run(List<Integer> steps) throws Exception {
        String[] event = admin.event();
        long item = admin.item(event[0], false);
        admin.quota(event[0], item, 1_000_000);
        URI base = URI.create(service.base);
        List<Subscriber> open = new ArrayList<>();
        List<String> rows = new ArrayList<>(
                List.of("| idle streams | service RSS MiB | JVM memory used MiB | saw a sale within 2 s |",
                        "|---|---|---|---|"));
        Http buyer = new Http(service.base, Service.STOREFRONT);
        for (int step : steps) {
            while (open.size() < step) {
                Socket socket = new Socket(base.getHost(), base.getPort());
                OutputStream out = socket.getOutputStream();
                out.write(("GET /api/v1/events/" + event[0] + "/availability/stream?access_token=" + Service.STOREFRONT
                        + " HTTP/1.1\r\nHost: " + base.getHost() + "\r\nAccept: text/event-stream\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                        StandardCharsets.UTF_8));
                readEvent(in);
                open.add(new Subscriber(socket, in));
            }
            String cart = buyer.post("/api/v1/events/" + event[0] + "/carts", null).body().replaceAll(
                    ".*\"id\":\"([^\"]+)\".*", "$1");
            buyer.post("/api/v1/events/" + event[0] + "/carts/" + cart + "/positions",
                    "{\"positions\":[{\"item_id\":" + item + "}]}");
            long deadline = System.nanoTime() + 2_000_000_000L;
            int saw = 0;
            for (Subscriber subscriber : open) {
                int left = (int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
                subscriber.socket().setSoTimeout(left);
                try {
                    readEvent(subscriber.in());
                    saw++;
                } catch (java.net.SocketTimeoutException late) {
                    // counted as not seen in time
                }
            }
            rows.add(String.format("| %,d | %d | %.0f | %,d |", open.size(), service.rssMb(),
                    service.metric("jvm_memory_used_bytes") / (1 << 20), saw));
            System.out.println(rows.get(rows.size() - 1));
        }
        System.out.println(String.join(System.lineSeparator(), rows));
        for (Subscriber subscriber : open) {
            subscriber.socket().close();
        }
    }

    /** Reads lines up to and including the next {@code data:} line. */
    private static void readEvent(BufferedReader in) throws Exception {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.startsWith("data:")) {
                return;
            }
        }
        throw new IllegalStateException("the stream ended");
    }
}
