-- The seat count V25 kept beside a plan is never read, and this release no longer writes it. It becomes optional
-- rather than going at once: during a rolling update, replicas of the previous release still write it. A later
-- release drops it.
ALTER TABLE seating_plans ALTER COLUMN seats DROP NOT NULL;
