-- The task queue (SPEC section 5). A task is claimed by one worker at a time with FOR UPDATE SKIP LOCKED
-- and carries a lease: a task still 'running' past locked_until belonged to a worker that died and is
-- claimed again. Failures come back as 'ready' at a later run_at (exponential backoff with jitter) until
-- max_attempts, then stay as 'failed' with the last error for a human to see.
CREATE TABLE tasks (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind         text        NOT NULL,
    payload      text        NOT NULL,
    status       text        NOT NULL DEFAULT 'ready' CHECK (status IN ('ready', 'running', 'done', 'failed')),
    attempts     integer     NOT NULL DEFAULT 0,
    max_attempts integer     NOT NULL CHECK (max_attempts >= 1),
    run_at       timestamptz NOT NULL DEFAULT now(),
    locked_by    text,
    locked_until timestamptz,
    last_error   text,
    created_at   timestamptz NOT NULL DEFAULT now(),
    finished_at  timestamptz
);
-- The two ways a task becomes claimable; both are small partial indexes however long the history grows.
CREATE INDEX tasks_ready ON tasks (run_at) WHERE status = 'ready';
CREATE INDEX tasks_leased ON tasks (locked_until) WHERE status = 'running';

-- The webhook outbox: written in the same transaction as the order change it reports, delivered by a
-- 'webhook' task. id is the Standard Webhooks message id, the same on every retry.
CREATE TABLE webhook_messages (
    id           text        PRIMARY KEY,
    type         text        NOT NULL,
    body         text        NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    delivered_at timestamptz
);
