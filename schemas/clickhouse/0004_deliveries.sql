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
    missing_agent, missing_resource,
    multiIf(
        graph_revision >= revision, 'graph revision not before the read',
        failed_checks > 0, 'label not admissible at the graph revision',
        '') AS reason,
    toUInt8(reason = '') AS admissible
FROM (
    SELECT
        event_id, revision, time_ns, user_id, query_id, graph_revision, agents, resources, fragments,
        countIf(check_kind != '' AND check_ok = 0) AS failed_checks,
        argMinIf(check_item, check_index, check_kind = 'agent' AND check_ok = 0) AS missing_agent,
        if(countIf(check_kind = 'agent' AND check_ok = 0) > 0, '',
           argMinIf(check_item, check_index, check_kind = 'resource' AND check_ok = 0)) AS missing_resource
    FROM (
        SELECT
            event_id, revision, time_ns, user_id, query_id, graph_revision, agents, resources, fragments,
            check_kind, check_item, check_index, max(edge_granted) AS check_ok
        FROM (
            SELECT
                event_id, revision, time_ns, user_id, query_id, graph_revision, agents, resources, fragments,
                check_kind, check_item, check_index, edge_graph, edge_from, edge_to,
                argMaxIf(g_granted, g_revision, g_revision > 0 AND g_revision <= graph_revision) AS edge_granted
            FROM (
                SELECT
                    event_id, revision, time_ns, user_id, query_id, graph_revision, agents, resources, fragments,
                    chk.1 AS check_kind, chk.2 AS check_item, chk.3 AS check_index,
                    chk.4 AS edge_graph, chk.5 AS edge_from, chk.6 AS edge_to
                FROM (
                    SELECT
                        event_id, revision, time_ns, user_id, query_id, graph_revision, agents, resources, fragments,
                        arrayConcat(
                            arrayMap(i -> ('agent', agents[i], toUInt32(i), 'user_agent', user_id, agents[i]),
                                     arrayEnumerate(agents)),
                            arrayMap(i -> ('resource', resources[i % length(resources) + 1],
                                           toUInt32(i % length(resources) + 1), 'agent_resource',
                                           if(empty(agents), [''], agents)[intDiv(i, length(resources)) + 1],
                                           resources[i % length(resources) + 1]),
                                     range(greatest(length(agents), 1) * length(resources)))) AS checks
                    FROM (
                        SELECT
                            event_id, revision, time_ns, user_id, query_id, graph_revision,
                            any(agents) AS agents, any(resources) AS resources, any(fragments) AS fragments
                        FROM deliveries
                        WHERE 1
                        GROUP BY event_id, revision, time_ns, user_id, query_id, graph_revision
                    )
                )
                LEFT ARRAY JOIN checks AS chk
            )
            ALL LEFT JOIN (
                SELECT graph AS edge_graph, from_id AS edge_from, to_id AS edge_to,
                       revision AS g_revision, granted AS g_granted
                FROM grants
                WHERE from_id IN (SELECT user_id FROM deliveries WHERE 1)
                   OR from_id IN (SELECT arrayJoin(agents) FROM deliveries WHERE 1)
            ) USING (edge_graph, edge_from, edge_to)
            GROUP BY event_id, revision, time_ns, user_id, query_id, graph_revision, agents, resources, fragments,
                     check_kind, check_item, check_index, edge_graph, edge_from, edge_to
        )
        GROUP BY event_id, revision, time_ns, user_id, query_id, graph_revision, agents, resources, fragments,
                 check_kind, check_item, check_index
    )
    GROUP BY event_id, revision, time_ns, user_id, query_id, graph_revision, agents, resources, fragments
);
