-- What the backlog gauges (tasks/Backlog) count every sweep interval on every replica: small partial indexes,
-- so that counting costs the backlog, not the history.
CREATE INDEX tasks_failed ON tasks (id) WHERE status = 'failed';
CREATE INDEX webhook_messages_undelivered ON webhook_messages (created_at) WHERE delivered_at IS NULL;
