-- Scenario 2 creates a cart for every order, one statement each (the adds and checkouts after it go in batches), so
-- what PostgreSQL does for every such row counts in full (docs/benchmark-history.md, "Issue 41: what each order
-- costs PostgreSQL, counted"). Two of those costs guarded nothing the service can reach:

-- A cart's and an order's event: each insert checked it with a key-share lock on the event's row, the one row every
-- buyer of a sale shares (under concurrent buyers, a new multixact each time). An event is never deleted (the API
-- has no such call) and its id comes from the event the request already loaded. The tables that refer to an item,
-- a seat, a voucher or a date keep their keys: deleting those takes no lock and relies on them (InventoryChanged).
ALTER TABLE carts DROP CONSTRAINT carts_event_id_fkey;
ALTER TABLE orders DROP CONSTRAINT orders_event_id_fkey;

-- A cart's checks: PostgreSQL reads every check's expression anew for each statement that writes the table, and a
-- cart's insert is a statement of its own. Its id is the service's (RandomIds: 22 characters, 128 random bits), its
-- buyer has passed the request's validation (1 to 200 characters) or the buyer token the service signed. An order,
-- which outlives its request, keeps its checks.
ALTER TABLE carts DROP CONSTRAINT carts_id_check;
ALTER TABLE carts DROP CONSTRAINT carts_buyer_check;
