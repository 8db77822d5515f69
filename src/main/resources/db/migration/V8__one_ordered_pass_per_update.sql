-- Moving holds to a new deadline (extending a cart) updated the hold counters in two passes: the old
-- buckets, then the new ones, each in (item, width, bucket) order but not in one order together. Two carts
-- extended in the same second could then take each other's rows the opposite way round and deadlock: one
-- holding the new one-second bucket and waiting for a one-minute bucket, the other the other way round. Now
-- removals and additions go to adjust_item_holds together, as one ordered statement (V5's rule), and a
-- bucket that loses and gains a hold is not touched at all.
CREATE OR REPLACE FUNCTION count_cart_holds() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM adjust_item_holds(array_agg(c.item_id), array_agg(c.expires), array_agg(1))
        FROM added c LEFT JOIN vouchers v ON v.id = c.voucher_id WHERE NOT coalesce(v.block_quota, false)
        HAVING count(*) > 0;
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM adjust_item_holds(array_agg(c.item_id), array_agg(c.expires), array_agg(-1))
        FROM removed c LEFT JOIN vouchers v ON v.id = c.voucher_id WHERE NOT coalesce(v.block_quota, false)
        HAVING count(*) > 0;
    ELSE
        PERFORM adjust_item_holds(array_agg(c.item_id), array_agg(c.expires), array_agg(c.delta))
        FROM (SELECT item_id, expires, voucher_id, -1 AS delta FROM removed
              UNION ALL
              SELECT item_id, expires, voucher_id, 1 FROM added) c
        LEFT JOIN vouchers v ON v.id = c.voucher_id WHERE NOT coalesce(v.block_quota, false)
        HAVING count(*) > 0;
    END IF;
    RETURN NULL;
END
$$;
