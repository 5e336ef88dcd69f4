-- The raw log: one row per event, exactly as cmem stored it.
-- ReplacingMergeTree on the event id: a redelivered batch adds rows that a
-- merge collapses, and every query dedupes by id without waiting for one.
CREATE TABLE IF NOT EXISTS events (
    id             String,
    revision       UInt64,
    type           String,
    schema_version UInt32,
    subject        String,
    source         String,
    actor          String,
    correlation_id String,
    causation_id   String,
    time_ns        Int64,
    time           DateTime('UTC'),
    data           String,
    -- non-empty when the event failed its schema check: data then holds the
    -- raw bytes and the other columns what could be read from them
    error          String
) ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(time)
ORDER BY id;
