-- Every delivery of a query to its user (cmem.query.delivered): delivery is
-- a read, so the audit judges the label of what was shown against the
-- user's permissions at the delivery's graph_revision.
CREATE TABLE IF NOT EXISTS deliveries (
    event_id         String,
    revision         UInt64,
    time_ns          Int64,
    time             DateTime('UTC'),
    query_id         String,
    user_id          String,
    channel          String, -- http | nats
    status           String, -- pending | answered | failed
    graph_revision   UInt64,
    agents           Array(String), -- the label of what was shown
    resources        Array(String),
    fragments        Array(String),
    withheld_parts   Array(String), -- what was not shown, and why
    withheld_reasons Array(String)
) ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(time)
ORDER BY (query_id, event_id);

-- Every delivery with whether its label was admissible to its user when it
-- was served: see audit/sql/delivery_verdicts.sql, of which this is the
-- unfiltered copy.
CREATE VIEW IF NOT EXISTS delivery_verdicts AS
SELECT
    event_id, revision, time_ns, user_id, query_id, graph_revision, agents, resources, fragments,
    arrayFirst(a -> NOT has(invoked, a), agents) AS missing_agent,
    if(missing_agent = '', arrayFirst(r -> NOT has(usable, r), resources), '') AS missing_resource,
    multiIf(
        graph_revision >= revision, 'graph revision not before the read',
        missing_agent != '' OR missing_resource != '', 'label not admissible at the graph revision',
        '') AS reason,
    toUInt8(reason = '') AS admissible
FROM (
    SELECT
        event_id,
        any(revision) AS revision, any(time_ns) AS time_ns, any(user_id) AS user_id,
        any(query_id) AS query_id, any(graph_revision) AS graph_revision,
        any(agents) AS agents, any(resources) AS resources, any(fragments) AS fragments,
        groupArrayIf(edge_to, edge_graph = 'user_agent' AND edge_granted = 1) AS invoked,
        groupArrayIf(edge_to, edge_graph = 'agent_resource' AND edge_granted = 1) AS usable
    FROM (
        SELECT
            event_id, edge_graph, edge_from, edge_to,
            any(revision) AS revision, any(time_ns) AS time_ns, any(user_id) AS user_id,
            any(query_id) AS query_id, any(graph_revision) AS graph_revision,
            any(agents) AS agents, any(resources) AS resources, any(fragments) AS fragments,
            argMaxIf(g_granted, g_revision, g_revision > 0 AND g_revision <= graph_revision) AS edge_granted
        FROM (
            SELECT
                event_id, revision, time_ns, user_id, query_id, graph_revision, agents, resources, fragments,
                edge.1 AS edge_graph, edge.2 AS edge_from, edge.3 AS edge_to
            FROM (
                SELECT
                    event_id, revision, time_ns, user_id, query_id, graph_revision, agents, resources, fragments,
                    arrayConcat(
                        arrayMap(a -> ('user_agent', user_id, a), agents),
                        arrayMap(i -> ('agent_resource', agents[intDiv(i, length(resources)) + 1],
                                       resources[i % length(resources) + 1]),
                                 range(length(agents) * length(resources)))) AS edges
                FROM (
                    SELECT
                        event_id, any(revision) AS revision, any(time_ns) AS time_ns, any(user_id) AS user_id,
                        any(query_id) AS query_id, any(graph_revision) AS graph_revision,
                        any(agents) AS agents, any(resources) AS resources, any(fragments) AS fragments
                    FROM deliveries
                    WHERE 1
                    GROUP BY event_id
                )
            )
            LEFT ARRAY JOIN edges AS edge
        )
        ALL LEFT JOIN (
            SELECT graph AS edge_graph, from_id AS edge_from, to_id AS edge_to,
                   revision AS g_revision, granted AS g_granted
            FROM grants
            WHERE from_id IN (SELECT user_id FROM deliveries WHERE 1)
               OR from_id IN (SELECT arrayJoin(agents) FROM deliveries WHERE 1)
        ) USING (edge_graph, edge_from, edge_to)
        GROUP BY event_id, edge_graph, edge_from, edge_to
    )
    GROUP BY event_id
);
