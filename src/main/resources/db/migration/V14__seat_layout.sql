-- Where a seat is (SPEC section 8), so that "best available" can pick adjacent seats: consecutive numbers in one
-- section and row are adjacent. All three are optional; a seat without a number is never picked that way.
ALTER TABLE seats ADD COLUMN section text CHECK (length(section) BETWEEN 1 AND 100);
ALTER TABLE seats ADD COLUMN seat_row text CHECK (length(seat_row) BETWEEN 1 AND 100);
ALTER TABLE seats ADD COLUMN number integer CHECK (number >= 0);

-- Best available reads an item's numbered seats, under the event's exclusive lock.
CREATE INDEX seats_item_layout ON seats (item_id, section, seat_row, number) WHERE number IS NOT NULL;
