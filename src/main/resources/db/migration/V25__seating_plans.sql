-- Seating plans in pretix's format (SPEC section 13). The plan is kept as imported, beside the mapping of its
-- categories to items; its seats are rows of seats like any other (one set a date in an event with dates), which
-- also remember where they are drawn and their category. A seat of no plan has neither.
CREATE TABLE seating_plans (
    event_id   bigint      PRIMARY KEY REFERENCES events (id) ON DELETE CASCADE,
    plan       json        NOT NULL,
    categories jsonb       NOT NULL,
    seats      integer     NOT NULL CHECK (seats >= 0),
    version    bigint      NOT NULL DEFAULT 0,
    updated_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE seats ADD COLUMN x double precision;
ALTER TABLE seats ADD COLUMN y double precision;
ALTER TABLE seats ADD COLUMN category text CHECK (length(category) BETWEEN 1 AND 200);
-- pretix's order of a plan's seats: zone, then row, then seat (its sorting_rank).
ALTER TABLE seats ADD COLUMN plan_rank bigint;
