-- Contract section 3, "What a caller is shown is what it can take" (2026-12-06), where the count itself was of another
-- rule: what a waiting list keeps back, and what an allotment's channel uses. Functions and a constraint only: no
-- table is rewritten, and each lock below is a catalog lock of a moment, bounded so that a live sale never waits long.
SET LOCAL lock_timeout = '3s';

-- What the waiting list keeps back in a quota of the items q_items (contract section 9, as section 3 amends it): each
-- waiting entry of an item on sale that sells without seats and brings only items on sale, times the places one
-- position of it takes in the quota (itself where it is a member, and what its bundle brings of the members); and for
-- an offer of such a bundle still running, offered or already partly redeemed, what the bundle brings of the members
-- for each use of the offer's voucher not yet held or redeemed (its own item's place is the voucher's block, section
-- 1's). "kept;voucher:places,..." where offers keep something, so that a buyer with the offer's code counts what its
-- offer keeps as its own (QuotaCounter). Called only for a quota whose event has no dates and has entries open or
-- redeemed (QuotaCounter's `waits`; an event with dates has no waiting list, and entries from before its first date
-- hold nothing back), so that the counting statement every sale starts does not carry it. STABLE: it reads the
-- calling statement's snapshot.
CREATE FUNCTION waiting_kept(q_items bigint[]) RETURNS text LANGUAGE plpgsql STABLE AS $$
DECLARE
    waiting bigint;
    offered text;
BEGIN
    SELECT coalesce(sum(w.quantity * x.places), 0) INTO waiting
    FROM (SELECT p.item_id, sum(p.places) AS places FROM (
            SELECT unnest(q_items) AS item_id, 1 AS places
            UNION ALL
            SELECT b.item_id, b.count FROM item_bundles b WHERE b.bundled_item_id = ANY(q_items)) p
          GROUP BY p.item_id) x
      JOIN item_waiting w ON w.item_id = x.item_id AND w.quantity > 0
      JOIN items i ON i.id = x.item_id AND i.active AND NOT i.requires_seat
    WHERE NOT EXISTS (SELECT 1 FROM item_bundles b JOIN items o ON o.id = b.bundled_item_id
                      WHERE b.item_id = x.item_id AND NOT o.active);
    SELECT string_agg(o.voucher_id || ':' || o.places, ',' ORDER BY o.voucher_id) INTO offered
    FROM (SELECT v.id AS voucher_id, sum(b.count) * greatest(v.max_usages - v.redeemed
                   - (SELECT count(*) FROM cart_positions c WHERE c.voucher_id = v.id AND c.expires >= now()), 0)
                   AS places
          FROM item_bundles b JOIN items i ON i.id = b.item_id AND i.active AND NOT i.requires_seat
            JOIN vouchers v ON v.item_id = b.item_id AND NOT v.gives_back AND v.valid_until >= now()
            JOIN waiting_list_entries e ON e.voucher_id = v.id AND e.status IN ('offered', 'redeemed')
          WHERE b.bundled_item_id = ANY(q_items)
            AND NOT EXISTS (SELECT 1 FROM item_bundles a JOIN items o ON o.id = a.bundled_item_id
                            WHERE a.item_id = b.item_id AND NOT o.active)
          GROUP BY v.id, v.max_usages, v.redeemed) o
    WHERE o.places > 0;
    RETURN waiting || coalesce(';' || offered, '');
END $$;

-- The events whose quotas the count asks waiting_kept: an offer partly redeemed still keeps what its bundle brings for
-- the uses it has left, so redeemed entries count too. Building it holds writes to the entries (joins, offers) for as
-- long as it reads them, bounded by the lock_timeout above; reads, sales and every other table go on.
CREATE INDEX waiting_list_entries_kept ON waiting_list_entries (event_id)
    WHERE status IN ('waiting', 'offered', 'redeemed');

-- An allotment for any channel, the web shop's included (contract section 12, 2026-12-06): an organizer keeps part of
-- a quota for its own site against a reseller.
ALTER TABLE allotments DROP CONSTRAINT allotments_channel_check;

-- What the allotments in force of quota q_id use (V24, inventory/AllotmentCount): a channel's positions in the quota
-- use its allotment with a voucher or without (section 12, 2026-12-06); until now those a blocking voucher covered
-- were left to the voucher, so a box office selling with its own codes kept its whole allotment as well. The web
-- shop's positions are found among the event's carts and orders without the partial indexes of the other channels'
-- (which hold no web row, so that the web shop's sales add no index entries): each count stops at the allotment's
-- size, so while the web shop has sold less than its allotment, a count reads every web cart and order of the event.
-- q_blocking is no longer read; the signature stays for the release that still calls it.
CREATE OR REPLACE FUNCTION allotment_use(q_id bigint, q_event bigint, q_date bigint, q_items bigint[],
                                         q_blocking bigint[], q_excluded bigint[]) RETURNS text
LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN (SELECT string_agg(a.id || ':' || a.size || ':' || least(a.size, CASE WHEN a.channel = 'web'
              THEN (SELECT count(*) FROM (SELECT FROM carts k JOIN cart_positions c ON c.cart_id = k.id
                     WHERE k.event_id = q_event AND k.channel = 'web'
                       AND hold_bucket(c.expires, 1) >= now() AND c.id <> ALL(q_excluded) AND c.item_id = ANY(q_items)
                       AND (q_date IS NULL OR c.date_id IS NULL OR c.date_id = q_date)
                     LIMIT a.size) held)
                 + (SELECT count(*) FROM (SELECT FROM orders o JOIN order_positions p ON p.order_id = o.id
                     WHERE o.event_id = q_event AND o.channel = 'web'
                       AND o.status IN ('pending', 'paid') AND p.item_id = ANY(q_items)
                       AND (q_date IS NULL OR p.date_id IS NULL OR p.date_id = q_date)
                     LIMIT a.size) sold)
              ELSE (SELECT count(*) FROM (SELECT FROM carts k JOIN cart_positions c ON c.cart_id = k.id
                     WHERE k.event_id = q_event AND k.channel = a.channel AND k.channel <> 'web'
                       AND hold_bucket(c.expires, 1) >= now() AND c.id <> ALL(q_excluded) AND c.item_id = ANY(q_items)
                       AND (q_date IS NULL OR c.date_id IS NULL OR c.date_id = q_date)
                     LIMIT a.size) held)
                 + (SELECT count(*) FROM (SELECT FROM orders o JOIN order_positions p ON p.order_id = o.id
                     WHERE o.event_id = q_event AND o.channel = a.channel AND o.channel <> 'web'
                       AND o.status IN ('pending', 'paid') AND p.item_id = ANY(q_items)
                       AND (q_date IS NULL OR p.date_id IS NULL OR p.date_id = q_date)
                     LIMIT a.size) sold) END) || ':' || a.channel, ',' ORDER BY a.id)
            FROM allotments a WHERE a.quota_id = q_id AND (a.release_at IS NULL OR a.release_at > now()));
END $$;
