-- Organizers and their API tokens (contract section 11), and what keeps a browser holding the storefront token
-- inside the rush's rules (section 8).

-- A tenant: every event belongs to one. The events made before organizers belong to 'default'.
CREATE TABLE organizers (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    slug       text        NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9][a-z0-9-]{0,49}$'),
    name       text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    version    bigint      NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO organizers (slug, name) VALUES ('default', 'Default');

-- An event inserted without one (by hand, by a tool that predates organizers) is the default organizer's too.
ALTER TABLE events ADD COLUMN organizer_id bigint REFERENCES organizers (id);
UPDATE events SET organizer_id = (SELECT id FROM organizers WHERE slug = 'default');
DO $$ BEGIN
    EXECUTE format('ALTER TABLE events ALTER COLUMN organizer_id SET DEFAULT %s',
                   (SELECT id FROM organizers WHERE slug = 'default'));
END $$;
ALTER TABLE events ALTER COLUMN organizer_id SET NOT NULL;
CREATE INDEX events_organizer ON events (organizer_id, id);

-- An organizer's API token. Only a SHA-256 of the secret is kept (the secret has 256 random bits, so no slow hash
-- is needed); prefix, unique, is what lists show to tell tokens apart and how a presented token is found. events:
-- the ids of the events it is limited to, null for all of its organizer's. changed_at moves with every change a
-- replica must hear of (a revocation): each replica reads the tokens changed since it last looked, every second.
CREATE TABLE api_tokens (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    organizer_id bigint      NOT NULL REFERENCES organizers (id),
    name         text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    scope        text        NOT NULL CHECK (scope IN ('admin', 'storefront')),
    events       bigint[],
    prefix       text        NOT NULL UNIQUE,
    secret_hash  bytea       NOT NULL,
    expires_at   timestamptz,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz,
    revoked_at   timestamptz,
    changed_at   timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX api_tokens_organizer ON api_tokens (organizer_id, id) WHERE revoked_at IS NULL;
CREATE INDEX api_tokens_changed ON api_tokens (changed_at);

-- An admission is good for one cart (section 8): its ticket keeps the cart it opened, set once, even after that cart
-- is gone; the cart keeps its ticket, which its later requests must present (null: opened while the room was off).
ALTER TABLE queue_tickets ADD COLUMN cart_id text;
ALTER TABLE carts ADD COLUMN admission_ticket text;

-- Queue tickets are limited per client (the address a trusted proxy reports) and per buyer.
ALTER TABLE queue_tickets ADD COLUMN client text;
ALTER TABLE queue_tickets ADD COLUMN buyer text;
CREATE INDEX queue_tickets_client ON queue_tickets (event_id, client) WHERE client IS NOT NULL;
CREATE INDEX queue_tickets_buyer ON queue_tickets (event_id, buyer) WHERE buyer IS NOT NULL;
