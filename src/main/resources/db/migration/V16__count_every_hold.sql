-- The hold counters (V5) left out every cart position using a block_quota voucher, on the grounds that the
-- voucher already counts that capacity. That is true only while the voucher blocks, and only in the quotas
-- it blocks in (contract section 1): once its valid_until passed, once an admin turned block_quota off, or in
-- another quota of the same item when the voucher names one quota_id, those holds were counted nowhere, and
-- a quota of 10 took 15 holds. The counters now count every live hold; the counting statement
-- (inventory/QuotaCounter) subtracts, per quota, the holds of the vouchers that block in it at that moment,
-- so the answer follows a voucher's block as it ends, with no job, as holds already stop counting at expires.
CREATE OR REPLACE FUNCTION count_cart_holds() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM adjust_item_holds(array_agg(c.item_id), array_agg(c.expires), array_agg(1))
        FROM added c HAVING count(*) > 0;
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM adjust_item_holds(array_agg(c.item_id), array_agg(c.expires), array_agg(-1))
        FROM removed c HAVING count(*) > 0;
    ELSE
        PERFORM adjust_item_holds(array_agg(c.item_id), array_agg(c.expires), array_agg(c.delta))
        FROM (SELECT item_id, expires, -1 AS delta FROM removed
              UNION ALL
              SELECT item_id, expires, 1 FROM added) c
        HAVING count(*) > 0;
    END IF;
    RETURN NULL;
END
$$;

-- Counted again from the rows: the live holds of blocking vouchers join the counters. The SHARE lock keeps
-- holds from being added or removed between the delete and the insert.
LOCK TABLE cart_positions IN SHARE MODE;
DELETE FROM item_holds;
INSERT INTO item_holds (item_id, width, bucket, positions)
SELECT c.item_id, w.width, hold_bucket(c.expires, w.width), count(*)
FROM cart_positions c CROSS JOIN (VALUES (1), (60)) AS w (width)
WHERE hold_bucket(c.expires, 1) >= now()
GROUP BY 1, 2, 3;
