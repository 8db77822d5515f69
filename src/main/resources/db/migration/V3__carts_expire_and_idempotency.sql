-- A cart's own deadline: the latest of its positions' expires, or creation + TTL while it is empty.
-- Cart clean-up removes carts past it; the positions keep their own deadlines for counting.
ALTER TABLE carts ADD COLUMN expires timestamptz NOT NULL DEFAULT now();
CREATE INDEX carts_expires ON carts (expires);

-- Idempotency-Key records (SPEC section 4): one per bearer token and key. status is NULL while the first
-- request still runs; the primary key makes "first" a database fact, whatever the replica.
CREATE TABLE idempotency_keys (
    caller       text        NOT NULL,
    key          text        NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
    request_hash text        NOT NULL,
    status       integer,
    content_type text,
    location     text,
    etag         text,
    body         text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (caller, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
