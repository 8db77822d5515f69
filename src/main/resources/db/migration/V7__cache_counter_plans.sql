-- The counters' upserts (V5) were SQL-language functions, which PostgreSQL before 18 parses and plans on
-- every call: an add to cart planned its hold upsert again, while the quota's lock was held. PL/pgSQL
-- keeps the plan for the session. Same statements, same order, so the deadlock argument of V5 still holds.
CREATE OR REPLACE FUNCTION adjust_item_holds(items bigint[], deadlines timestamptz[], deltas integer[]) RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
    INSERT INTO item_holds AS h (item_id, width, bucket, positions)
    SELECT c.item_id, w.width, hold_bucket(c.expires, w.width), sum(c.delta)
    FROM unnest(items, deadlines, deltas) AS c (item_id, expires, delta) CROSS JOIN (VALUES (1), (60)) AS w (width)
    WHERE c.delta > 0 OR hold_bucket(c.expires, w.width) >= now()
    GROUP BY 1, 2, 3
    HAVING sum(c.delta) <> 0
    ORDER BY 1, 2, 3
    ON CONFLICT (item_id, width, bucket) DO UPDATE SET positions = h.positions + excluded.positions;
END
$$;

CREATE OR REPLACE FUNCTION adjust_item_sales(items bigint[], statuses text[], deltas integer[]) RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
    INSERT INTO item_sales AS s (item_id, status, positions)
    SELECT c.item_id, c.status, sum(c.delta)
    FROM unnest(items, statuses, deltas) AS c (item_id, status, delta)
    WHERE c.status IN ('pending', 'paid')
    GROUP BY 1, 2
    HAVING sum(c.delta) <> 0
    ORDER BY 1, 2
    ON CONFLICT (item_id, status) DO UPDATE SET positions = s.positions + excluded.positions;
END
$$;
