-- The single statement behind locking/AdvisoryLocks.java: takes every lock of one transaction in
-- ascending key order (so two transactions can never deadlock), shared or exclusive per key, and
-- bounds the WHOLE acquisition by budget_ms. PostgreSQL's lock_timeout bounds each wait separately,
-- so it is set to what is left of the budget before every wait, and restored at the end.
-- Running out of budget raises SQLSTATE 55P03 (lock_not_available), as lock_timeout itself does.
CREATE FUNCTION acquire_advisory_locks(lock_keys bigint[], shared_flags boolean[], budget_ms integer)
RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
    deadline         timestamptz := clock_timestamp() + budget_ms * interval '1 millisecond';
    previous_timeout text        := current_setting('lock_timeout');
    remaining_ms     integer;
    target           record;
BEGIN
    FOR target IN
        SELECT k.key, k.shared FROM unnest(lock_keys, shared_flags) AS k (key, shared) ORDER BY k.key
    LOOP
        remaining_ms := ceil(extract(epoch FROM deadline - clock_timestamp()) * 1000);
        IF remaining_ms <= 0 THEN
            RAISE EXCEPTION 'advisory locks not acquired within % ms', budget_ms
                USING ERRCODE = 'lock_not_available';
        END IF;
        PERFORM set_config('lock_timeout', remaining_ms || 'ms', true);
        IF target.shared THEN
            PERFORM pg_advisory_xact_lock_shared(target.key);
        ELSE
            PERFORM pg_advisory_xact_lock(target.key);
        END IF;
    END LOOP;
    PERFORM set_config('lock_timeout', previous_timeout, true);
END
$$;
