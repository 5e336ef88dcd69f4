-- Typed facts derived from the events, written by the projector in the same
-- flush as the raw events (before them, so that resuming from
-- max(events.revision) never skips a typed row).

-- Every grant and revoke of both access graphs.
CREATE TABLE IF NOT EXISTS grants (
    event_id String,
    revision UInt64,
    time_ns  Int64,
    time     DateTime('UTC'),
    graph    String, -- user_agent | agent_resource
    from_id  String,
    to_id    String,
    granted  UInt8
) ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(time)
ORDER BY (graph, from_id, to_id, event_id);

-- Every fragment with its immutable provenance.
CREATE TABLE IF NOT EXISTS fragments (
    fragment_id   String,
    event_id      String,
    revision      UInt64,
    time_ns       Int64,
    time          DateTime('UTC'),
    user_id       String,
    tier          String, -- private | shared
    agents        Array(String),
    resources     Array(String),
    created_at_ns Int64,
    query_id      String,
    derived_from  Array(String),
    provenance    String,
    key           String
) ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(time)
ORDER BY (fragment_id, event_id);

-- Every memory view served.
CREATE TABLE IF NOT EXISTS reads (
    event_id       String,
    revision       UInt64,
    time_ns        Int64,
    time           DateTime('UTC'),
    user_id        String,
    agent_id       String,
    query_id       String,
    graph_revision UInt64,
    private        Array(String),
    shared         Array(String),
    policy         String
) ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(time)
ORDER BY event_id;

-- One row per fragment a read surfaced, in the tier list it was listed in.
CREATE TABLE IF NOT EXISTS read_fragments (
    fragment_id    String,
    event_id       String,
    revision       UInt64,
    time_ns        Int64,
    time           DateTime('UTC'),
    user_id        String,
    agent_id       String,
    query_id       String,
    graph_revision UInt64,
    listed_tier    String -- private | shared
) ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(time)
ORDER BY (fragment_id, event_id, listed_tier);

-- The query pipeline's steps: kind is submitted, agent_selected,
-- resource_called, agent_responded, answered or failed.
CREATE TABLE IF NOT EXISTS query_facts (
    event_id    String,
    revision    UInt64,
    time_ns     Int64,
    time        DateTime('UTC'),
    query_id    String,
    user_id     String,
    kind        String,
    agent_id    String,
    resource_id String,
    round       UInt32
) ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(time)
ORDER BY (query_id, event_id);
