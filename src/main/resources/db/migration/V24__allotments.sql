-- Allotments (contract section 12): a part of a quota kept for one channel until release_at (null: until deleted).
-- One per quota and channel, so that what a channel has used of its part is one number. The web shop is what is
-- left for everyone, so it has none (its positions are nearly all of them, and counting them would cost every sale).
CREATE TABLE allotments (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id   bigint      NOT NULL REFERENCES events (id),
    quota_id   bigint      NOT NULL REFERENCES quotas (id) ON DELETE CASCADE,
    channel    text        NOT NULL CHECK (channel <> 'web'),
    size       integer     NOT NULL CHECK (size >= 0),
    release_at timestamptz,
    version    bigint      NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT allotments_quota_channel UNIQUE (quota_id, channel)
);
CREATE INDEX allotments_event ON allotments (event_id, id);

-- What a channel used of its allotment is counted from its carts and orders in the event: a box office's few rows,
-- found without reading the web shop's.
CREATE INDEX carts_event_channel ON carts (event_id, channel) WHERE channel <> 'web';
CREATE INDEX orders_event_channel ON orders (event_id, channel) WHERE channel <> 'web';

-- Sales over time (contract section 12) read the orders an event placed in a range: by event and creation time.
-- It replaces the index by event alone, which it serves too, so an order costs no more index entries than before.
DROP INDEX orders_event;
CREATE INDEX orders_event_created ON orders (event_id, created_at);

-- How many allotments a quota has, kept by the rows themselves: the count reads a quota's allotments only when it has
-- some, so a sale on a quota without one costs what it did. An increment, not a recount, so that two transactions
-- that add and delete allotments of one quota at once both land (a recount would read its own snapshot).
ALTER TABLE quotas ADD COLUMN allotments integer NOT NULL DEFAULT 0;
CREATE FUNCTION count_allotments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE quotas SET allotments = allotments + 1 WHERE id = NEW.quota_id;
    ELSE
        UPDATE quotas SET allotments = allotments - 1 WHERE id = OLD.quota_id;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER allotments_counted AFTER INSERT OR DELETE ON allotments
    FOR EACH ROW EXECUTE FUNCTION count_allotments();

-- What the allotments in force of quota q_id use, as QuotaCounter reads it (inventory/AllotmentCount says how and
-- why): "id:size:used:channel", comma separated; null when none is in force. A function, called only for a quota
-- that has allotments, so that the counting statement's plan does not carry (and start, on every sale) the part
-- that counts them. STABLE: it reads the calling statement's snapshot. q_items: the quota's items; q_blocking: the
-- vouchers that block in it now; q_excluded: the cart positions being checked again.
CREATE FUNCTION allotment_use(q_id bigint, q_event bigint, q_date bigint, q_items bigint[], q_blocking bigint[],
                              q_excluded bigint[]) RETURNS text LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN (SELECT string_agg(a.id || ':' || a.size || ':' || least(a.size,
              (SELECT count(*) FROM (SELECT FROM carts k JOIN cart_positions c ON c.cart_id = k.id
                 WHERE k.event_id = q_event AND k.channel = a.channel AND k.channel <> 'web'
                   AND hold_bucket(c.expires, 1) >= now() AND c.id <> ALL(q_excluded) AND c.item_id = ANY(q_items)
                   AND (q_date IS NULL OR c.date_id IS NULL OR c.date_id = q_date)
                   AND (c.voucher_id IS NULL OR c.voucher_id <> ALL(q_blocking))
                 LIMIT a.size) held)
              + (SELECT count(*) FROM (SELECT FROM orders o JOIN order_positions p ON p.order_id = o.id
                 WHERE o.event_id = q_event AND o.channel = a.channel AND o.channel <> 'web'
                   AND o.status IN ('pending', 'paid') AND p.item_id = ANY(q_items)
                   AND (q_date IS NULL OR p.date_id IS NULL OR p.date_id = q_date)
                   AND (p.voucher_id IS NULL OR p.voucher_id <> ALL(q_blocking))
                 LIMIT a.size) sold)) || ':' || a.channel, ',' ORDER BY a.id)
            FROM allotments a WHERE a.quota_id = q_id AND (a.release_at IS NULL OR a.release_at > now()));
END $$;
