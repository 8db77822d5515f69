-- MigrationsTest: what a migration's own transaction waits for a lock, as startup/Migrations sets it.
CREATE TABLE lock_wait_probe AS SELECT current_setting('lock_timeout') AS lock_timeout;
