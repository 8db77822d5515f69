-- Admins list an event's orders newest first and find them by the buyer's email (SPEC section 4).
CREATE INDEX orders_event_newest ON orders (event_id, id DESC);
CREATE INDEX orders_event_email ON orders (event_id, lower(email));
