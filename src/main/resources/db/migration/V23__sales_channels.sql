-- Sales channels (contract section 12): where a ticket is sold. Every organizer has 'web', which a trigger makes
-- with the organizer, so no code path can make an organizer without it. A channel's slug never changes: tokens,
-- carts, orders, items and seats name it by its slug.
CREATE TABLE channels (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    organizer_id bigint      NOT NULL REFERENCES organizers (id),
    slug         text        NOT NULL CHECK (slug ~ '^[a-z0-9][a-z0-9-]{0,49}$'),
    name         text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    version      bigint      NOT NULL DEFAULT 0,
    created_at   timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT channels_organizer_slug UNIQUE (organizer_id, slug)
);
INSERT INTO channels (organizer_id, slug, name) SELECT id, 'web', 'Web shop' FROM organizers;

CREATE FUNCTION organizer_web_channel() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO channels (organizer_id, slug, name) VALUES (NEW.id, 'web', 'Web shop');
    RETURN NULL;
END $$;
CREATE TRIGGER organizers_web_channel AFTER INSERT ON organizers
    FOR EACH ROW EXECUTE FUNCTION organizer_web_channel();

-- A storefront token sells in one channel; carts and orders keep the channel they were opened in. A constant
-- default adds the column without rewriting the table, and the hot path's inserts of the web channel do not name it.
ALTER TABLE api_tokens ADD COLUMN channel text NOT NULL DEFAULT 'web';
ALTER TABLE carts ADD COLUMN channel text NOT NULL DEFAULT 'web';
ALTER TABLE orders ADD COLUMN channel text NOT NULL DEFAULT 'web';

-- An item or a seat limited to channels (null: every one).
ALTER TABLE items ADD COLUMN channels text[] CHECK (cardinality(channels) >= 1);
ALTER TABLE seats ADD COLUMN channels text[] CHECK (cardinality(channels) >= 1);

-- What deleting a channel asks (was anything sold in it?), indexed for every channel but web, which is never deleted:
-- the web shop's carts and orders, nearly all of them, add no index entry.
CREATE INDEX carts_channel ON carts (channel) WHERE channel <> 'web';
CREATE INDEX orders_channel ON orders (channel) WHERE channel <> 'web';
