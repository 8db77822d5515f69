-- What a bundle brought leaves with its bundle (contract section 10), by the statements that delete positions
-- (cart/CartRows, order/OrderChanges, inventory/ExpiredHolds), no longer by V19's self-referencing foreign
-- keys: their ON DELETE CASCADE ran a query for every deleted position, and each of those deletes ran the holds
-- counters' statement trigger (V16) once more, bundle or not. A checkout of ten carts paid ten of each: about
-- 0.05 ms of database time a purchase (docs/benchmark-history.md). The tests' oracle checks that no position
-- names a bundle position its cart or order does not have.
ALTER TABLE cart_positions DROP CONSTRAINT cart_positions_bundled_in_fkey;
ALTER TABLE order_positions DROP CONSTRAINT order_positions_bundled_in_fkey;
