-- Grants that end by themselves (issue 15). A grant row may carry its
-- expiry; an expired event (cmem.*.expired) is a row with expiry = 1 and
-- granted = 0: a revoke in log order, skipped by answers by time, where the
-- grant's own expires_ns decides. Rows written before this migration get
-- the defaults: no expiry, not an expired event. (ClickHouse 18.16 has no
-- ADD COLUMN IF NOT EXISTS; the migrator treats "already exists" from an
-- ADD COLUMN as done, which keeps a half-applied migration redoable.)
ALTER TABLE grants ADD COLUMN expires_ns Int64 DEFAULT 0;
ALTER TABLE grants ADD COLUMN expiry UInt8 DEFAULT 0;

-- read_verdicts and delivery_verdicts judge each read at (graph_revision,
-- the read's time), as access.Now does: the queries of
-- audit/sql/read_verdicts.sql and audit/sql/delivery_verdicts.sql again.
DROP TABLE IF EXISTS read_verdicts;
CREATE VIEW IF NOT EXISTS read_verdicts AS
SELECT
    event_id, fragment_id, revision, time_ns, user_id, agent_id, graph_revision, listed_tier,
    multiIf(
        frag_revision = 0 OR frag_revision >= revision, 'unknown fragment',
        graph_revision >= revision, 'graph revision not before the read',
        frag_tier != 'shared' AND frag_user != user_id, 'private fragment of another user',
        granted_edges < needed_edges, 'provenance not admissible at the graph revision',
        '') AS reason,
    toUInt8(reason = '') AS admissible
FROM (
    SELECT
        event_id, fragment_id,
        any(revision) AS revision, any(time_ns) AS time_ns, any(user_id) AS user_id,
        any(agent_id) AS agent_id, any(graph_revision) AS graph_revision,
        min(listed_tier) AS listed_tier, any(frag_revision) AS frag_revision,
        any(frag_user) AS frag_user, any(frag_tier) AS frag_tier,
        countIf(edge_graph != '') AS needed_edges,
        sumIf(edge_granted, edge_graph != '') AS granted_edges
    FROM (
        SELECT
            event_id, fragment_id, revision, time_ns, user_id, agent_id, graph_revision, listed_tier,
            frag_revision, frag_user, frag_tier, edge_graph, edge_from, edge_to,
            argMaxIf(g_granted, g_revision, g_revision > 0 AND g_revision <= graph_revision) AS edge_last_granted,
            argMaxIf(g_expires, g_revision, g_revision > 0 AND g_revision <= graph_revision) AS edge_expires,
            toUInt8(edge_last_granted = 1 AND (edge_expires = 0 OR time_ns < edge_expires)) AS edge_granted
        FROM (
            SELECT
                event_id, fragment_id, revision, time_ns, user_id, agent_id, graph_revision, listed_tier,
                frag_revision, frag_user, frag_tier,
                edge.1 AS edge_graph, edge.2 AS edge_from, edge.3 AS edge_to
            FROM (
                SELECT
                    event_id, fragment_id, revision, time_ns, user_id, agent_id, graph_revision, listed_tier,
                    frag_revision, frag_user, frag_tier,
                    arrayConcat(
                        arrayMap(a -> ('user_agent', user_id, a), frag_agents),
                        arrayMap(r -> ('agent_resource', agent_id, r), frag_resources)) AS edges
                FROM (
                    SELECT event_id, fragment_id, revision, time_ns, user_id, agent_id, graph_revision, listed_tier
                    FROM read_fragments
                    WHERE 1
                )
                ANY LEFT JOIN (
                    SELECT
                        fragment_id,
                        min(revision) AS frag_revision,
                        argMin(user_id, revision) AS frag_user,
                        argMin(tier, revision) AS frag_tier,
                        argMin(agents, revision) AS frag_agents,
                        argMin(resources, revision) AS frag_resources
                    FROM fragments
                    WHERE fragment_id IN (SELECT fragment_id FROM read_fragments WHERE 1)
                    GROUP BY fragment_id
                ) USING fragment_id
            )
            LEFT ARRAY JOIN edges AS edge
        )
        ALL LEFT JOIN (
            SELECT graph AS edge_graph, from_id AS edge_from, to_id AS edge_to,
                   revision AS g_revision, granted AS g_granted, expires_ns AS g_expires
            FROM grants
            WHERE from_id IN (SELECT user_id FROM read_fragments WHERE 1)
               OR from_id IN (SELECT agent_id FROM read_fragments WHERE 1)
        ) USING (edge_graph, edge_from, edge_to)
        GROUP BY event_id, fragment_id, revision, time_ns, user_id, agent_id, graph_revision, listed_tier,
                 frag_revision, frag_user, frag_tier, edge_graph, edge_from, edge_to
    )
    GROUP BY event_id, fragment_id
)
;

DROP TABLE IF EXISTS delivery_verdicts;
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
                argMaxIf(g_granted, g_revision, g_revision > 0 AND g_revision <= graph_revision) AS edge_last_granted,
                argMaxIf(g_expires, g_revision, g_revision > 0 AND g_revision <= graph_revision) AS edge_expires,
                toUInt8(edge_last_granted = 1 AND (edge_expires = 0 OR time_ns < edge_expires)) AS edge_granted
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
                       revision AS g_revision, granted AS g_granted, expires_ns AS g_expires
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
)
;
