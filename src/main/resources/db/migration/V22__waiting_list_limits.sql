-- Joins of a waiting list are limited per client and per buyer as queue tickets are (contract section 9, added
-- 2026-11-26): an entry keeps the address it was joined from, and a join counts the open entries (waiting or
-- offered) of its client and of its buyer in the event. Entries joined before have no client and count for none.
ALTER TABLE waiting_list_entries ADD COLUMN client text;
CREATE INDEX waiting_list_entries_open_client ON waiting_list_entries (event_id, client)
    WHERE status IN ('waiting', 'offered') AND client IS NOT NULL;
CREATE INDEX waiting_list_entries_open_buyer ON waiting_list_entries (event_id, buyer)
    WHERE status IN ('waiting', 'offered') AND buyer IS NOT NULL;
