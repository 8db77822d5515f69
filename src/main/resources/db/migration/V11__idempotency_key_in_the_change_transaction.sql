-- An Idempotency-Key's record is now written in the transaction of the change it records
-- (idempotency/IdempotencyKeys.java). While its request runs the row is uncommitted, so a request that
-- dies with its replica or its connection leaves no row behind and its key is free at once; a committed
-- row always carries the outcome. Rows of the earlier design still marked running are dropped.
DELETE FROM idempotency_keys WHERE status IS NULL;
ALTER TABLE idempotency_keys ALTER COLUMN status SET NOT NULL;

-- Claims a key for the calling transaction, in one round trip. Returns 'started' with the row inserted (and
-- still uncommitted), 'running' when another transaction holds an uncommitted row for the key (it does
-- not wait for it beyond wait_ms), or 'stored' with the committed outcome. An outcome older than kept_s
-- is replaced, so the key can be used afresh.
CREATE FUNCTION claim_idempotency_key(p_caller text, p_key text, p_hash text, wait_ms integer, kept_s integer)
RETURNS TABLE (outcome text, request_hash text, status integer, content_type text, location text, etag text,
               body text)
LANGUAGE plpgsql
AS $$
DECLARE
    previous_timeout text := current_setting('lock_timeout');
    inserted         integer;
BEGIN
    FOR attempt IN 1..2 LOOP
        BEGIN
            PERFORM set_config('lock_timeout', wait_ms || 'ms', true);
            INSERT INTO idempotency_keys AS k (caller, key, request_hash, status)
            VALUES (p_caller, p_key, p_hash, 0) ON CONFLICT DO NOTHING;
            GET DIAGNOSTICS inserted = ROW_COUNT;
        EXCEPTION WHEN lock_not_available THEN
            PERFORM set_config('lock_timeout', previous_timeout, true);
            RETURN QUERY SELECT 'running', NULL::text, NULL::integer, NULL::text, NULL::text, NULL::text, NULL::text;
            RETURN;
        END;
        PERFORM set_config('lock_timeout', previous_timeout, true);
        IF inserted = 1 THEN
            RETURN QUERY SELECT 'started', p_hash, NULL::integer, NULL::text, NULL::text, NULL::text, NULL::text;
            RETURN;
        END IF;
        DELETE FROM idempotency_keys k WHERE k.caller = p_caller AND k.key = p_key
            AND k.created_at < now() - kept_s * interval '1 second';
        IF NOT FOUND THEN
            RETURN QUERY SELECT 'stored', k.request_hash, k.status, k.content_type, k.location, k.etag, k.body
                FROM idempotency_keys k WHERE k.caller = p_caller AND k.key = p_key;
            RETURN;
        END IF;
    END LOOP;
    RETURN QUERY SELECT 'running', NULL::text, NULL::integer, NULL::text, NULL::text, NULL::text, NULL::text;
END
$$;
