-- Whether each delivery of deliveries matching the filter was admissible
-- to its user when it was served; the filter replaces DELIVERIES_FILTER.
-- The view delivery_verdicts in schemas/clickhouse is the same query over
-- every delivery (a test holds the file to it). It is access.Admits for a
-- user reader, in SQL that runs on ClickHouse 18.16 (no window functions,
-- no non-equi joins, no arrayFlatten; a column a lambda captures must stay
-- needed outside it, which is why the label's arrays are GROUP BY keys):
--   1. one row per delivery (a redelivered batch's duplicates collapse);
--   2. expand its label into checks: per agent a (index i) the edge
--      (user, a); per resource r (index j) the edges (a, r) for every agent
--      a of the label (the cross product, by index) — with no agent, one
--      edge from '' that no grant has;
--   3. join every change of those edges and keep, per edge, the last change
--      at or before the delivery's graph_revision (argMaxIf by revision);
--      a grant counts only before its expiry, judged at the delivery's time
--      (the clock its snapshot was taken at: access.Now);
--   4. a check passes if any of its edges is granted; the failed agent
--      check of least index, else the failed resource check of least
--      index, is what Admits names (access.Verdict).
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
                        WHERE DELIVERIES_FILTER
                        GROUP BY event_id, revision, time_ns, user_id, query_id, graph_revision
                    )
                )
                LEFT ARRAY JOIN checks AS chk
            )
            ALL LEFT JOIN (
                SELECT graph AS edge_graph, from_id AS edge_from, to_id AS edge_to,
                       revision AS g_revision, granted AS g_granted, expires_ns AS g_expires
                FROM grants
                WHERE from_id IN (SELECT user_id FROM deliveries WHERE DELIVERIES_FILTER)
                   OR from_id IN (SELECT arrayJoin(agents) FROM deliveries WHERE DELIVERIES_FILTER)
            ) USING (edge_graph, edge_from, edge_to)
            GROUP BY event_id, revision, time_ns, user_id, query_id, graph_revision, agents, resources, fragments,
                     check_kind, check_item, check_index, edge_graph, edge_from, edge_to
        )
        GROUP BY event_id, revision, time_ns, user_id, query_id, graph_revision, agents, resources, fragments,
                 check_kind, check_item, check_index
    )
    GROUP BY event_id, revision, time_ns, user_id, query_id, graph_revision, agents, resources, fragments
)
