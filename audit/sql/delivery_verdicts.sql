-- Whether each delivery of deliveries matching the filter was admissible
-- to its user when it was served; the filter replaces DELIVERIES_FILTER.
-- The view delivery_verdicts in schemas/clickhouse holds the same query
-- over every delivery (a test holds the two to the same answers). It is
-- access.Admits for a user reader, in SQL that runs on ClickHouse 18.16 (no
-- window functions, no non-equi joins, no arrayFlatten):
--   1. one row per delivery (a redelivered batch's duplicates collapse);
--   2. expand its label into the edges the rule asks about: (user, a) for
--      every agent a of the label, and (a, r) for every agent a and
--      resource r of the label (the cross product, by index);
--   3. join every change of those edges and keep, per edge, the last change
--      at or before the delivery's graph_revision (argMaxIf by revision);
--   4. invoked = the label's agents the user may invoke, usable = the
--      label's resources some agent of the label may use; the first agent
--      not invoked, else the first resource not usable, in label order, is
--      what Admits would name (access.Verdict).
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
                    WHERE DELIVERIES_FILTER
                    GROUP BY event_id
                )
            )
            LEFT ARRAY JOIN edges AS edge
        )
        ALL LEFT JOIN (
            SELECT graph AS edge_graph, from_id AS edge_from, to_id AS edge_to,
                   revision AS g_revision, granted AS g_granted
            FROM grants
            WHERE from_id IN (SELECT user_id FROM deliveries WHERE DELIVERIES_FILTER)
               OR from_id IN (SELECT arrayJoin(agents) FROM deliveries WHERE DELIVERIES_FILTER)
        ) USING (edge_graph, edge_from, edge_to)
        GROUP BY event_id, edge_graph, edge_from, edge_to
    )
    GROUP BY event_id
)
