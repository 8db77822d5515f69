-- Usage counters, so that counting a quota (SPEC section 1) reads a bounded number of rows however many
-- tickets were sold or held: per item, its pending and paid order positions, and its live cart holds in
-- buckets by deadline. Triggers keep them, so every write path (and any hand-written SQL) stays counted.
--
-- Holds: each hold is counted twice, in a one-second bucket and in a one-minute bucket, both keyed by its
-- deadline rounded up (hold_bucket). With B = hold_bucket(now(), 60), the holds still counting
-- (expires >= now()) are exactly the one-second buckets in [now(), B] plus the one-minute buckets after B:
-- at most 61 rows plus one per minute of cart TTL, and no job has to run when a hold expires. Deadlines are
-- whole seconds (reservation/Deadlines.java); a fractional one counts until its second ends, never less.
--
-- Deadlock freedom: every trigger applies its changes in one statement, in (item, bucket) order.
-- Giving back an already expired hold changes nothing: its buckets are never counted again.

CREATE FUNCTION hold_bucket(expires timestamptz, width_seconds integer) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT to_timestamp((ceil(extract(epoch FROM expires) / width_seconds) * width_seconds)::float8) $$;

CREATE TABLE item_holds (
    item_id   bigint      NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    width     integer     NOT NULL CHECK (width IN (1, 60)),
    bucket    timestamptz NOT NULL,
    positions integer     NOT NULL,
    PRIMARY KEY (item_id, width, bucket)
);

CREATE TABLE item_sales (
    item_id   bigint NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    status    text   NOT NULL CHECK (status IN ('pending', 'paid')),
    positions bigint NOT NULL,
    PRIMARY KEY (item_id, status)
);

CREATE FUNCTION adjust_item_holds(items bigint[], deadlines timestamptz[], deltas integer[]) RETURNS void
LANGUAGE sql
AS $$
    INSERT INTO item_holds AS h (item_id, width, bucket, positions)
    SELECT c.item_id, w.width, hold_bucket(c.expires, w.width), sum(c.delta)
    FROM unnest(items, deadlines, deltas) AS c (item_id, expires, delta) CROSS JOIN (VALUES (1), (60)) AS w (width)
    WHERE c.delta > 0 OR hold_bucket(c.expires, w.width) >= now()
    GROUP BY 1, 2, 3
    HAVING sum(c.delta) <> 0
    ORDER BY 1, 2, 3
    ON CONFLICT (item_id, width, bucket) DO UPDATE SET positions = h.positions + excluded.positions
$$;

CREATE FUNCTION adjust_item_sales(items bigint[], statuses text[], deltas integer[]) RETURNS void
LANGUAGE sql
AS $$
    INSERT INTO item_sales AS s (item_id, status, positions)
    SELECT c.item_id, c.status, sum(c.delta)
    FROM unnest(items, statuses, deltas) AS c (item_id, status, delta)
    WHERE c.status IN ('pending', 'paid')
    GROUP BY 1, 2
    HAVING sum(c.delta) <> 0
    ORDER BY 1, 2
    ON CONFLICT (item_id, status) DO UPDATE SET positions = s.positions + excluded.positions
$$;

-- Positions using a block_quota voucher are not counted: the voucher already holds that capacity.
-- (A voucher's block_quota never changes after it is created.)
CREATE FUNCTION count_cart_holds() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        PERFORM adjust_item_holds(array_agg(c.item_id), array_agg(c.expires), array_agg(-1))
        FROM removed c LEFT JOIN vouchers v ON v.id = c.voucher_id WHERE NOT coalesce(v.block_quota, false)
        HAVING count(*) > 0;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        PERFORM adjust_item_holds(array_agg(c.item_id), array_agg(c.expires), array_agg(1))
        FROM added c LEFT JOIN vouchers v ON v.id = c.voucher_id WHERE NOT coalesce(v.block_quota, false)
        HAVING count(*) > 0;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER cart_positions_counted_on_insert AFTER INSERT ON cart_positions
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION count_cart_holds();
CREATE TRIGGER cart_positions_counted_on_update AFTER UPDATE ON cart_positions
    REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION count_cart_holds();
CREATE TRIGGER cart_positions_counted_on_delete AFTER DELETE ON cart_positions
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION count_cart_holds();

-- An order position counts under its order's status; orders are never deleted, only canceled or expired.
CREATE FUNCTION count_order_positions() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM adjust_item_sales(array_agg(p.item_id), array_agg(o.status), array_agg(1))
        FROM added p JOIN orders o ON o.id = p.order_id HAVING count(*) > 0;
    ELSE
        PERFORM adjust_item_sales(array_agg(p.item_id), array_agg(o.status), array_agg(-1))
        FROM removed p JOIN orders o ON o.id = p.order_id HAVING count(*) > 0;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER order_positions_counted_on_insert AFTER INSERT ON order_positions
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION count_order_positions();
CREATE TRIGGER order_positions_counted_on_delete AFTER DELETE ON order_positions
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION count_order_positions();

CREATE FUNCTION count_order_status_changes() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    PERFORM adjust_item_sales(array_agg(p.item_id), array_agg(change.status), array_agg(change.delta))
    FROM removed earlier JOIN added later ON later.id = earlier.id AND later.status <> earlier.status
    CROSS JOIN LATERAL (VALUES (earlier.status, -1), (later.status, 1)) AS change (status, delta)
    JOIN order_positions p ON p.order_id = later.id
    HAVING count(*) > 0;
    RETURN NULL;
END
$$;

CREATE TRIGGER orders_counted_on_status_change AFTER UPDATE ON orders
    REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION count_order_status_changes();

-- What was there before the counters.
INSERT INTO item_holds (item_id, width, bucket, positions)
SELECT c.item_id, w.width, hold_bucket(c.expires, w.width), count(*)
FROM cart_positions c LEFT JOIN vouchers v ON v.id = c.voucher_id CROSS JOIN (VALUES (1), (60)) AS w (width)
WHERE NOT coalesce(v.block_quota, false) AND hold_bucket(c.expires, 1) >= now()
GROUP BY 1, 2, 3;

INSERT INTO item_sales (item_id, status, positions)
SELECT p.item_id, o.status, count(*)
FROM order_positions p JOIN orders o ON o.id = p.order_id WHERE o.status IN ('pending', 'paid')
GROUP BY 1, 2;
