-- Whether each (read, fragment) row of read_fragments matching the filter
-- was admissible when it was served; the filter replaces READS_FILTER. The
-- view read_verdicts in schemas/clickhouse holds the same query over every
-- read (a test keeps the two equal). No window functions and no non-equi
-- joins, so it runs on ClickHouse 18.16:
--   1. join each row to its fragment's provenance (first write wins);
--   2. expand the provenance into the edges it needs: (user, a) for every
--      agent in A(m), (agent, r) for every resource in R(m);
--   3. join every change of those edges and keep, per edge, the last change
--      at or before the read's graph_revision (argMaxIf by revision); the
--      edge is granted if that change is a grant whose expiry (if any) is
--      after the read's time, the clock the reader judged it at
--      (access.Now); expired events are revokes here (schemas/clickhouse
--      0005);
--   4. admissible iff every needed edge was granted, plus the checks that
--      do not need the graphs. Duplicate rows from a redelivered batch
--      collapse in the GROUP BYs and cannot change argMaxIf.
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
                    WHERE READS_FILTER
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
                    WHERE fragment_id IN (SELECT fragment_id FROM read_fragments WHERE READS_FILTER)
                    GROUP BY fragment_id
                ) USING fragment_id
            )
            LEFT ARRAY JOIN edges AS edge
        )
        ALL LEFT JOIN (
            SELECT graph AS edge_graph, from_id AS edge_from, to_id AS edge_to,
                   revision AS g_revision, granted AS g_granted, expires_ns AS g_expires
            FROM grants
            WHERE from_id IN (SELECT user_id FROM read_fragments WHERE READS_FILTER)
               OR from_id IN (SELECT agent_id FROM read_fragments WHERE READS_FILTER)
        ) USING (edge_graph, edge_from, edge_to)
        GROUP BY event_id, fragment_id, revision, time_ns, user_id, agent_id, graph_revision, listed_tier,
                 frag_revision, frag_user, frag_tier, edge_graph, edge_from, edge_to
    )
    GROUP BY event_id, fragment_id
)
