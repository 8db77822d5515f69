package io.ticketing.reservations.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.UUID;

/**
 * JSON POSTs over one keep-alive HTTP/1.1 connection, as a storefront's backend pool sends them; one per client
 * thread. Written by hand because the load generator shares the machine's two cores with the service and
 * PostgreSQL: the JDK's HttpClient spent about a fifth of the machine's CPU at 64 clients, which the service
 * then did not have. pgbench, the ceiling's client, is as lean.
 */
final class Http implements AutoCloseable {

    record Response(int status, String body) {
    }

    /** {@code -Dbench.idempotency-keys=true}: every POST carries a fresh {@code Idempotency-Key}, as careful clients send. */
    private static final boolean KEYS = Boolean.getBoolean("bench.idempotency-keys");

    private final String host;
    private final int port;
    private final String token;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    Http(String base, String token) {
        URI uri = URI.create(base);
        this.host = uri.getHost();
        this.port = uri.getPort();
        this.token = token;
    }

    Response post(String path, String json) throws IOException {
        return send("POST", path, json);
    }

    /** One request; {@code json} null sends no body. */
    Response send(String method, String path, String json) throws IOException {
        return send(method, path, json, "", token);
    }

    /** A POST with another bearer token than this connection's (a scanner's, say). */
    Response postAs(String otherToken, String path, String json) throws IOException {
        return send("POST", path, json, "", otherToken);
    }

    /** A PATCH of the resource at version {@code etag}. */
    Response patch(String path, String json, String etag) throws IOException {
        return send("PATCH", path, json, "\r\nIf-Match: " + etag, token);
    }

    private Response send(String method, String path, String json, String moreHeaders, String bearer)
            throws IOException {
        byte[] body = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream request = new ByteArrayOutputStream(256 + body.length);
        request.writeBytes((method + " " + path + " HTTP/1.1\r\nHost: " + host + ":" + port
                + "\r\nAuthorization: Bearer " + bearer + "\r\nContent-Type: application/json\r\nContent-Length: "
                + body.length + (KEYS ? "\r\nIdempotency-Key: " + UUID.randomUUID() : "") + moreHeaders + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        request.writeBytes(body);
        try {
            return exchange(request.toByteArray());
        } catch (IOException e) {
            close();
            throw e;
        }
    }

    private Response exchange(byte[] request) throws IOException {
        if (socket == null) {
            socket = new Socket(host, port);
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(30_000);
            in = new BufferedInputStream(socket.getInputStream());
            out = socket.getOutputStream();
        }
        out.write(request);
        out.flush();
        int status = Integer.parseInt(line().substring(9, 12));
        int length = 0;
        boolean chunked = false;
        boolean closes = false;
        for (String header = line(); !header.isEmpty(); header = line()) {
            String name = header.substring(0, Math.max(header.indexOf(':'), 0)).toLowerCase(Locale.ROOT);
            String value = header.substring(header.indexOf(':') + 1).trim().toLowerCase(Locale.ROOT);
            switch (name) {
                case "content-length" -> length = Integer.parseInt(value);
                case "transfer-encoding" -> chunked = value.contains("chunked");
                case "connection" -> closes = value.contains("close");
                default -> {
                }
            }
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (chunked) {
            for (int size = Integer.parseInt(line().split(";")[0].trim(), 16); size > 0; size = Integer
                    .parseInt(line().split(";")[0].trim(), 16)) {
                body.writeBytes(in.readNBytes(size));
                line();
            }
            line();
        } else {
            body.writeBytes(in.readNBytes(length));
        }
        if (closes) {
            close();
        }
        return new Response(status, body.toString(StandardCharsets.UTF_8));
    }

    /** One header line, without its CRLF. */
    private String line() throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new EOFException("the service closed the connection");
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing a connection we no longer use
            }
            socket = null;
        }
    }
}
