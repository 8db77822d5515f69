-- What a quota's dates add to its count (contract sections 1 and 10), out of QuotaCounter's statement and into
-- functions it calls only where a date counts. Every sale starts that statement's generic plan, and PostgreSQL sets up
-- every sub-select of a plan on each run, whether it runs or not: the dates' eight and a date's voucher uses, which an
-- event without dates never runs, cost it a third more on every count (1.23 million instructions against 0.91 with
-- these functions, PostgreSQL 17), inside the lock every add of the quota waits for. A PL/pgSQL function plans a
-- statement the first time it runs it and keeps the plan for the session. STABLE: they read the calling statement's
-- snapshot.

-- What item `item` has sold (pending, paid) and holds live on date on_date, or on every date when on_date is null
-- (a quota of no date in an event with dates); the rows of no date (date_id 0) are the statement's own. Holds: the
-- two bucket ranges of V5, each read by the key's equality on the date where it can be.
CREATE TYPE item_usage AS (paid bigint, pending bigint, carts bigint);

CREATE FUNCTION item_usage_on_dates(item bigint, on_date bigint) RETURNS item_usage LANGUAGE plpgsql STABLE AS $$
DECLARE
    used item_usage;
BEGIN
    IF on_date IS NOT NULL THEN
        SELECT coalesce(sum(positions) FILTER (WHERE status = 'paid'), 0),
               coalesce(sum(positions) FILTER (WHERE status = 'pending'), 0)
          INTO used.paid, used.pending FROM item_sales WHERE item_id = item AND date_id = on_date;
        used.carts := (SELECT coalesce(sum(positions), 0) FROM item_holds WHERE item_id = item AND date_id = on_date
                         AND width = 1 AND bucket >= now() AND bucket <= hold_bucket(now(), 60))
            + (SELECT coalesce(sum(positions), 0) FROM item_holds WHERE item_id = item AND date_id = on_date
                 AND width = 60 AND bucket > hold_bucket(now(), 60));
    ELSE
        SELECT coalesce(sum(positions) FILTER (WHERE status = 'paid'), 0),
               coalesce(sum(positions) FILTER (WHERE status = 'pending'), 0)
          INTO used.paid, used.pending FROM item_sales WHERE item_id = item AND date_id > 0;
        used.carts := (SELECT coalesce(sum(positions), 0) FROM item_holds WHERE item_id = item AND date_id > 0
                         AND width = 1 AND bucket >= now() AND bucket <= hold_bucket(now(), 60))
            + (SELECT coalesce(sum(positions), 0) FROM item_holds WHERE item_id = item AND date_id > 0
                 AND width = 60 AND bucket > hold_bucket(now(), 60));
    END IF;
    RETURN used;
END $$;

-- What voucher `voucher`, of no date, has used on date on_date: its positions of no date or of that date in pending
-- and paid orders (QuotaCounter's VOUCHER_USES_IN_QUOTA says when this, not its redeemed, is its use in a quota).
CREATE FUNCTION voucher_uses_on_date(voucher bigint, on_date bigint) RETURNS bigint LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN (SELECT count(*) FROM order_positions p JOIN orders o ON o.id = p.order_id
            WHERE p.voucher_id = voucher AND o.status IN ('pending', 'paid')
              AND (p.date_id IS NULL OR p.date_id = on_date));
END $$;
