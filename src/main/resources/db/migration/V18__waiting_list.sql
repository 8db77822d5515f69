-- The waiting list (contract section 9): buyers of an item that cannot sell wait in order, and capacity freed
-- while they wait is offered to them first, as a blocking voucher each.
ALTER TABLE events ADD COLUMN waiting_list_enabled boolean NOT NULL DEFAULT false;
ALTER TABLE events ADD COLUMN offer_ttl_seconds integer NOT NULL DEFAULT 86400
    CHECK (offer_ttl_seconds BETWEEN 1 AND 31536000);

-- An offer's voucher keeps its uses when its order is canceled or expires: the capacity goes back to the list,
-- never to whoever holds the code (pretix #1163). Every other voucher gives its uses back, as before.
ALTER TABLE vouchers ADD COLUMN gives_back boolean NOT NULL DEFAULT true;

-- One entry: quantity places of one item for one email. Its id is its credential. seq orders entries of equal
-- priority by arrival, and is the admin list's cursor. Deleting an item (which nothing sold or held) takes its
-- list with it.
CREATE TABLE waiting_list_entries (
    id         text        PRIMARY KEY CHECK (length(id) >= 22),
    seq        bigint      GENERATED ALWAYS AS IDENTITY UNIQUE,
    event_id   bigint      NOT NULL REFERENCES events (id),
    item_id    bigint      NOT NULL REFERENCES items (id) ON DELETE CASCADE,
    quantity   integer     NOT NULL CHECK (quantity BETWEEN 1 AND 10),
    email      text        NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
    buyer      text,
    priority   integer     NOT NULL DEFAULT 0,
    status     text        NOT NULL DEFAULT 'waiting'
                           CHECK (status IN ('waiting', 'offered', 'redeemed', 'expired', 'canceled')),
    voucher_id bigint      REFERENCES vouchers (id),
    version    bigint      NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    CHECK ((status = 'waiting') = (voucher_id IS NULL) OR status = 'canceled')
);
-- One waiting or offered entry per item and email (409 already_waiting, by this constraint's name).
CREATE UNIQUE INDEX waiting_list_entries_item_email ON waiting_list_entries (item_id, lower(email))
    WHERE status IN ('waiting', 'offered');
-- The queue of an item, in the order offers are made; a position counts the entries before it.
CREATE INDEX waiting_list_entries_queue ON waiting_list_entries (item_id, priority DESC, seq)
    WHERE status = 'waiting';
CREATE INDEX waiting_list_entries_event ON waiting_list_entries (event_id, seq);
CREATE INDEX waiting_list_entries_voucher ON waiting_list_entries (voucher_id) WHERE voucher_id IS NOT NULL;
-- The sweep finds the events whose lists are open, and a run the offers of its event that ran out.
CREATE INDEX waiting_list_entries_open ON waiting_list_entries (event_id) WHERE status IN ('waiting', 'offered');

-- What waits per item, kept by the trigger below as the other counters are (V5), so that counting a quota stays
-- one index lookup per item however many entries wait.
CREATE TABLE item_waiting (
    item_id  bigint PRIMARY KEY REFERENCES items (id) ON DELETE CASCADE,
    quantity bigint NOT NULL DEFAULT 0
);

-- Statement triggers, one ordered pass over the counter rows each (V8's rule), and only where the waiting
-- quantity of an item changes: an offer redeemed or expiring changes nothing here.
CREATE FUNCTION adjust_item_waiting(items bigint[], deltas bigint[]) RETURNS void
LANGUAGE sql
AS $$
    INSERT INTO item_waiting AS w (item_id, quantity)
    SELECT c.item_id, sum(c.delta) FROM unnest(items, deltas) AS c (item_id, delta)
    WHERE EXISTS (SELECT 1 FROM items i WHERE i.id = c.item_id) -- a deleted item's counter went with it
    GROUP BY c.item_id HAVING sum(c.delta) <> 0 ORDER BY c.item_id
    ON CONFLICT (item_id) DO UPDATE SET quantity = w.quantity + excluded.quantity
$$;

CREATE FUNCTION count_waiting_entries() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM adjust_item_waiting(array_agg(c.item_id), array_agg(c.quantity::bigint))
        FROM added c WHERE c.status = 'waiting' HAVING count(*) > 0;
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM adjust_item_waiting(array_agg(c.item_id), array_agg(-c.quantity::bigint))
        FROM removed c WHERE c.status = 'waiting' HAVING count(*) > 0;
    ELSE
        PERFORM adjust_item_waiting(array_agg(c.item_id), array_agg(c.delta))
        FROM (SELECT item_id, -quantity::bigint AS delta FROM removed WHERE status = 'waiting'
              UNION ALL
              SELECT item_id, quantity::bigint FROM added WHERE status = 'waiting') c
        HAVING count(*) > 0;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER waiting_list_entries_counted_on_insert AFTER INSERT ON waiting_list_entries
    REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION count_waiting_entries();
CREATE TRIGGER waiting_list_entries_counted_on_update AFTER UPDATE ON waiting_list_entries
    REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION count_waiting_entries();
CREATE TRIGGER waiting_list_entries_counted_on_delete AFTER DELETE ON waiting_list_entries
    REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION count_waiting_entries();

-- An order created with an offer's voucher makes its entry redeemed, whichever flow redeems it.
CREATE FUNCTION redeem_waiting_entries() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    UPDATE waiting_list_entries e SET status = 'redeemed', version = e.version + 1
    FROM added v JOIN removed earlier ON earlier.id = v.id
    WHERE e.voucher_id = v.id AND v.redeemed > earlier.redeemed AND NOT v.gives_back
      AND e.status IN ('offered', 'expired');
    RETURN NULL;
END
$$;

CREATE TRIGGER vouchers_redeem_waiting_entries AFTER UPDATE ON vouchers
    REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION redeem_waiting_entries();

-- A task queued once (tasks/TaskQueue.enqueueOnce) looks for its twin among the ready ones.
CREATE INDEX tasks_ready_kind ON tasks (kind, payload) WHERE status = 'ready';
