-- Deletes that read whole tables. Deleting a voucher, item or quota makes PostgreSQL look up the rows that
-- refer to it through the foreign keys (and the in-use checks ask the same first): vouchers had only partial
-- indexes for blocking ones, order_positions none on voucher_id. Only non-null values are ever looked up.
CREATE INDEX order_positions_voucher ON order_positions (voucher_id) WHERE voucher_id IS NOT NULL;
CREATE INDEX vouchers_item ON vouchers (item_id) WHERE item_id IS NOT NULL;
CREATE INDEX vouchers_quota ON vouchers (quota_id) WHERE quota_id IS NOT NULL;
-- Housekeeping (tasks/Housekeeping) deletes finished tasks and delivered webhooks a week old, on every replica
-- every sweep: indexes of exactly the rows those statements can delete, so a sweep reads what it deletes.
CREATE INDEX tasks_done_finished ON tasks (finished_at) WHERE status = 'done';
CREATE INDEX webhook_messages_delivered ON webhook_messages (delivered_at) WHERE delivered_at IS NOT NULL;
