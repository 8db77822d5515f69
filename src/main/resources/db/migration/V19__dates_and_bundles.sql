-- Dates of an event series, passes for every date, and bundles (contract section 10).

-- One date of an event: a screening, a tour date, a museum slot. Ids stay below 2^55, which the date lock keys
-- need (locking/LockTarget.java); an identity never gets near.
CREATE TABLE event_dates (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id   bigint      NOT NULL REFERENCES events (id),
    name       text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    starts_at  timestamptz NOT NULL,
    ends_at    timestamptz CHECK (ends_at >= starts_at),
    active     boolean     NOT NULL DEFAULT true,
    version    bigint      NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX event_dates_event ON event_dates (event_id, id);

-- An item's price on one date, where it differs from the item's own.
CREATE TABLE item_date_prices (
    date_id bigint        NOT NULL REFERENCES event_dates (id) ON DELETE CASCADE,
    item_id bigint        NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    price   numeric(12,2) NOT NULL CHECK (price >= 0),
    PRIMARY KEY (date_id, item_id)
);
CREATE INDEX item_date_prices_item ON item_date_prices (item_id);

-- A pass: one position that counts on every active date of its event.
ALTER TABLE items ADD COLUMN every_date boolean NOT NULL DEFAULT false;

-- What one position of an item brings with it: count positions of each bundled item, in the same claim.
CREATE TABLE item_bundles (
    item_id         bigint  NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    bundled_item_id bigint  NOT NULL REFERENCES items (id),
    count           integer NOT NULL CHECK (count BETWEEN 1 AND 100),
    PRIMARY KEY (item_id, bundled_item_id),
    CHECK (item_id <> bundled_item_id)
);
CREATE INDEX item_bundles_bundled ON item_bundles (bundled_item_id);

-- Quotas, seats and vouchers may belong to one date. A seat's guid is unique within its date (the same plan
-- repeats on every date), and among the seats of no date within the event.
ALTER TABLE quotas ADD COLUMN date_id bigint REFERENCES event_dates (id);
CREATE INDEX quotas_date ON quotas (date_id) WHERE date_id IS NOT NULL;
ALTER TABLE vouchers ADD COLUMN date_id bigint REFERENCES event_dates (id);
CREATE INDEX vouchers_date ON vouchers (date_id) WHERE date_id IS NOT NULL;
ALTER TABLE seats ADD COLUMN date_id bigint REFERENCES event_dates (id);
ALTER TABLE seats DROP CONSTRAINT seats_event_id_guid_key;
CREATE UNIQUE INDEX seats_event_guid ON seats (event_id, guid) WHERE date_id IS NULL;
CREATE UNIQUE INDEX seats_date_guid ON seats (date_id, guid) WHERE date_id IS NOT NULL;
CREATE INDEX seats_event_guid_all ON seats (event_id, guid);

-- A position names its date (none: a pass, or an event without dates), the bundle position it came with, and, for
-- a pass that needs a seat, the guid it holds on every date.
ALTER TABLE cart_positions ADD COLUMN date_id bigint REFERENCES event_dates (id);
ALTER TABLE cart_positions ADD COLUMN bundled_in bigint REFERENCES cart_positions (id) ON DELETE CASCADE;
ALTER TABLE cart_positions ADD COLUMN pass_seat_guid text CHECK (length(pass_seat_guid) BETWEEN 1 AND 100);
CREATE INDEX cart_positions_date ON cart_positions (date_id) WHERE date_id IS NOT NULL;
CREATE INDEX cart_positions_bundled_in ON cart_positions (bundled_in) WHERE bundled_in IS NOT NULL;
CREATE INDEX cart_positions_pass_seat ON cart_positions (pass_seat_guid, expires) WHERE pass_seat_guid IS NOT NULL;
ALTER TABLE order_positions ADD COLUMN date_id bigint REFERENCES event_dates (id);
ALTER TABLE order_positions ADD COLUMN bundled_in bigint REFERENCES order_positions (id) ON DELETE CASCADE;
ALTER TABLE order_positions ADD COLUMN pass_seat_guid text CHECK (length(pass_seat_guid) BETWEEN 1 AND 100);
CREATE INDEX order_positions_date ON order_positions (date_id) WHERE date_id IS NOT NULL;
CREATE INDEX order_positions_bundled_in ON order_positions (bundled_in) WHERE bundled_in IS NOT NULL;
CREATE INDEX order_positions_pass_seat ON order_positions (pass_seat_guid) WHERE pass_seat_guid IS NOT NULL;

-- The counters (V5, V16) count per item and date: date 0 stands for positions of no date (passes, and every
-- position of an event without dates). A quota of one date counts its date's row and date 0's; a quota of no
-- date counts all of them. Date 0 comes first in the key, so an event without dates reads the same short range
-- as before.
ALTER TABLE item_holds ADD COLUMN date_id bigint NOT NULL DEFAULT 0;
ALTER TABLE item_holds DROP CONSTRAINT item_holds_pkey;
ALTER TABLE item_holds ADD PRIMARY KEY (item_id, date_id, width, bucket);
ALTER TABLE item_sales ADD COLUMN date_id bigint NOT NULL DEFAULT 0;
ALTER TABLE item_sales DROP CONSTRAINT item_sales_pkey;
ALTER TABLE item_sales ADD PRIMARY KEY (item_id, date_id, status);

DROP FUNCTION adjust_item_holds(bigint[], timestamptz[], integer[]);
CREATE FUNCTION adjust_item_holds(items bigint[], dates bigint[], deadlines timestamptz[], deltas integer[])
RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
    INSERT INTO item_holds AS h (item_id, date_id, width, bucket, positions)
    SELECT c.item_id, c.date_id, w.width, hold_bucket(c.expires, w.width), sum(c.delta)
    FROM unnest(items, dates, deadlines, deltas) AS c (item_id, date_id, expires, delta)
    CROSS JOIN (VALUES (1), (60)) AS w (width)
    WHERE c.delta > 0 OR hold_bucket(c.expires, w.width) >= now()
    GROUP BY 1, 2, 3, 4
    HAVING sum(c.delta) <> 0
    ORDER BY 1, 2, 3, 4
    ON CONFLICT (item_id, date_id, width, bucket) DO UPDATE SET positions = h.positions + excluded.positions;
END
$$;

DROP FUNCTION adjust_item_sales(bigint[], text[], integer[]);
CREATE FUNCTION adjust_item_sales(items bigint[], dates bigint[], statuses text[], deltas integer[]) RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
    INSERT INTO item_sales AS s (item_id, date_id, status, positions)
    SELECT c.item_id, c.date_id, c.status, sum(c.delta)
    FROM unnest(items, dates, statuses, deltas) AS c (item_id, date_id, status, delta)
    WHERE c.status IN ('pending', 'paid')
    GROUP BY 1, 2, 3
    HAVING sum(c.delta) <> 0
    ORDER BY 1, 2, 3
    ON CONFLICT (item_id, date_id, status) DO UPDATE SET positions = s.positions + excluded.positions;
END
$$;

CREATE OR REPLACE FUNCTION count_cart_holds() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM adjust_item_holds(array_agg(c.item_id), array_agg(coalesce(c.date_id, 0)), array_agg(c.expires),
                                  array_agg(1))
        FROM added c HAVING count(*) > 0;
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM adjust_item_holds(array_agg(c.item_id), array_agg(coalesce(c.date_id, 0)), array_agg(c.expires),
                                  array_agg(-1))
        FROM removed c HAVING count(*) > 0;
    ELSE
        PERFORM adjust_item_holds(array_agg(c.item_id), array_agg(coalesce(c.date_id, 0)), array_agg(c.expires),
                                  array_agg(c.delta))
        FROM (SELECT item_id, date_id, expires, -1 AS delta FROM removed
              UNION ALL
              SELECT item_id, date_id, expires, 1 FROM added) c
        HAVING count(*) > 0;
    END IF;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION count_order_positions() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM adjust_item_sales(array_agg(p.item_id), array_agg(coalesce(p.date_id, 0)), array_agg(o.status),
                                  array_agg(1))
        FROM added p JOIN orders o ON o.id = p.order_id HAVING count(*) > 0;
    ELSE
        PERFORM adjust_item_sales(array_agg(p.item_id), array_agg(coalesce(p.date_id, 0)), array_agg(o.status),
                                  array_agg(-1))
        FROM removed p JOIN orders o ON o.id = p.order_id HAVING count(*) > 0;
    END IF;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION count_order_status_changes() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    PERFORM adjust_item_sales(array_agg(p.item_id), array_agg(coalesce(p.date_id, 0)), array_agg(change.status),
                              array_agg(change.delta))
    FROM removed earlier JOIN added later ON later.id = earlier.id AND later.status <> earlier.status
    CROSS JOIN LATERAL (VALUES (earlier.status, -1), (later.status, 1)) AS change (status, delta)
    JOIN order_positions p ON p.order_id = later.id
    HAVING count(*) > 0;
    RETURN NULL;
END
$$;
