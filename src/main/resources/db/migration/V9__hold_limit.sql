-- A hold can be extended at most to its creation plus CART_MAX_HOLD (SPEC section 4): the creation time is
-- kept per position, since positions of one cart are added at different times.
ALTER TABLE cart_positions ADD COLUMN created_at timestamptz NOT NULL DEFAULT now();
