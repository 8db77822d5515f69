-- hold_bucket (V5) was declared IMMUTABLE, but extract() on a timestamptz is only STABLE, and PostgreSQL
-- does not inline an IMMUTABLE SQL function whose body is not: each of its 40-odd calls per add to cart
-- ran as a function call of its own, in the counting statement and in the hold counters' trigger, while
-- the quota's lock was held. Declared STABLE, which is what it is, it is inlined into both. Nothing stores
-- its result in an index, so the weaker promise changes no stored data.
ALTER FUNCTION hold_bucket(timestamptz, integer) STABLE;
