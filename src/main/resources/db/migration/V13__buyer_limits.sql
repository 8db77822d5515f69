-- Per-buyer limits (SPEC section 8). A limit of NULL is none. The buyer is an opaque id the storefront chooses
-- (a hashed email, an account id); a cart carries it from its creation and its order keeps it, so live cart
-- positions and pending and paid order positions of one buyer can be counted under the buyer's lock.
ALTER TABLE events ADD COLUMN max_per_buyer integer CHECK (max_per_buyer > 0);
ALTER TABLE items ADD COLUMN max_per_buyer integer CHECK (max_per_buyer > 0);
ALTER TABLE carts ADD COLUMN buyer text CHECK (length(buyer) BETWEEN 1 AND 200);
ALTER TABLE orders ADD COLUMN buyer text CHECK (length(buyer) BETWEEN 1 AND 200);

-- The count under the buyer's lock reads only that buyer's carts and orders.
CREATE INDEX carts_event_buyer ON carts (event_id, buyer) WHERE buyer IS NOT NULL;
CREATE INDEX orders_event_buyer ON orders (event_id, buyer) WHERE buyer IS NOT NULL;
