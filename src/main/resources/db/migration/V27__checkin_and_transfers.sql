-- Section 14: a ticket's secret, check-in lists, their scans and what they say of each position.

-- A ticket's secret: 244 random bits (two version-4 UUIDs, in core PostgreSQL), as 64 hexadecimal digits. The one
-- place one is made: an order position's default (checkout, an order change's new positions). Adding the column
-- rewrites order_positions (its default is volatile) and builds the unique index under the table's lock: a release
-- to roll out when sales are quiet.
CREATE FUNCTION ticket_secret() RETURNS text LANGUAGE sql VOLATILE AS $$
    SELECT translate(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')
$$;

-- Volatile, so every existing position gets its own.
ALTER TABLE order_positions ADD COLUMN secret text NOT NULL DEFAULT ticket_secret();
CREATE UNIQUE INDEX order_positions_secret ON order_positions (secret);

ALTER TABLE api_tokens DROP CONSTRAINT api_tokens_scope_check;
ALTER TABLE api_tokens ADD CONSTRAINT api_tokens_scope_check CHECK (scope IN ('admin', 'storefront', 'checkin'));

-- items: the items valid on it, null for all; date_id: the date it is for, null for every date (a pass is on each).
CREATE TABLE checkin_lists (
    id                     bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id               bigint      NOT NULL REFERENCES events (id),
    name                   text        NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    items                  bigint[],
    date_id                bigint      REFERENCES event_dates (id),
    allow_pending          boolean     NOT NULL DEFAULT false,
    allow_multiple_entries boolean     NOT NULL DEFAULT false,
    allow_entry_after_exit boolean     NOT NULL DEFAULT true,
    version                bigint      NOT NULL DEFAULT 0,
    created_at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX checkin_lists_event ON checkin_lists (event_id, id);

-- Where each position stands on a list: inside or not, how often it entered, and how many scans changed it (seq).
-- A list's "inside" is a count of these rows, never a counter on the list's row, where every gate would queue.
-- No foreign keys on this table or the next, both written at every scan: one to the list would make each scan lock
-- the list's one row (FOR KEY SHARE) from every gate at once, and an order change writes its positions anew under
-- the same ids. Deleting a list deletes its rows by statement.
CREATE TABLE checkin_states (
    list_id     bigint  NOT NULL,
    position_id bigint  NOT NULL,
    inside      boolean NOT NULL,
    entries     integer NOT NULL,
    seq         bigint  NOT NULL,
    PRIMARY KEY (list_id, position_id)
);
CREATE INDEX checkin_states_inside ON checkin_states (list_id) WHERE inside;
CREATE INDEX checkin_states_position_inside ON checkin_states (position_id) WHERE inside;

-- Every scan as it came, once per nonce and list: a scanner's retry or an offline queue's replay finds the first and
-- answers its result. seq is the state's seq an ok scan made. The secret is not kept, only its SHA-256 (request_hash,
-- with the type), so that a nonce sent again with another ticket is refused rather than answered another's scan.
CREATE TABLE checkin_scans (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    list_id     bigint      NOT NULL,
    nonce       text        NOT NULL CHECK (length(nonce) BETWEEN 1 AND 100),
    type        text        NOT NULL CHECK (type IN ('entry', 'exit')),
    request_hash bytea      NOT NULL,
    position_id bigint,
    result      text        CHECK (result IN ('ok', 'already_inside', 'unpaid', 'canceled', 'not_on_list', 'unknown')),
    seq         bigint,
    scanned_at  timestamptz,
    received_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (list_id, nonce)
);
CREATE INDEX checkin_scans_position ON checkin_scans (position_id, list_id);
