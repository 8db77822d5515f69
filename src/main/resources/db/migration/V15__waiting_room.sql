-- A fair waiting room per event (SPEC section 8). While enabled, the cart endpoints of the event need an
-- admission token, issued to queue tickets as the background workers admit them.
ALTER TABLE events ADD COLUMN waiting_room_enabled boolean NOT NULL DEFAULT false;
ALTER TABLE events ADD COLUMN admission_per_minute integer CHECK (admission_per_minute BETWEEN 1 AND 1000000);
ALTER TABLE events ADD COLUMN opens_at timestamptz;
ALTER TABLE events ADD CHECK (NOT waiting_room_enabled OR admission_per_minute IS NOT NULL);

-- Arrival order of tickets taken after the opening.
CREATE SEQUENCE queue_arrivals;

-- A buyer's place in the queue. place orders admission: a ticket taken before opens_at draws a random place in
-- [0, 1), one taken later gets 1 + its arrival number, so every ticket taken before the opening goes first, in
-- an order no refresh can improve, and later ones follow in arrival order. The id is the ticket's credential.
CREATE TABLE queue_tickets (
    id          text             PRIMARY KEY CHECK (length(id) >= 22),
    event_id    bigint           NOT NULL REFERENCES events (id) ON DELETE CASCADE,
    place       double precision NOT NULL,
    created_at  timestamptz      NOT NULL DEFAULT now(),
    admitted_at timestamptz
);
-- Admission takes the lowest places still waiting, and a ticket's position counts those below it.
CREATE INDEX queue_tickets_waiting ON queue_tickets (event_id, place) WHERE admitted_at IS NULL;
-- The admission windows count recent admissions.
CREATE INDEX queue_tickets_admitted ON queue_tickets (event_id, admitted_at) WHERE admitted_at IS NOT NULL;

-- Secrets every replica shares without configuration, such as the key that signs admission tokens.
CREATE TABLE service_secrets (
    name  text  PRIMARY KEY,
    value bytea NOT NULL
);
