-- Analytics for consumers that are not cmem: plain views over the typed
-- tables, so any ClickHouse client can SELECT them with its own WHERE.
-- Every count is an exact distinct count of ids, so rows a redelivered
-- batch doubled are counted once before any merge.

-- The paper's per-query metrics: the agents the coordinator used, resource
-- calls, distinct fragments read from each tier, fragments written. at_ns is
-- the time of the query's first event.
CREATE VIEW IF NOT EXISTS query_metrics AS
SELECT
    query_id,
    min(user_id) AS user_id,
    min(time_ns) AS at_ns,
    arraySort(groupUniqArrayIf(agent_id, kind = 'agent_selected')) AS agents,
    uniqExactIf(event_id, kind = 'resource_called') AS resource_calls,
    uniqExactIf(fragment_id, kind = 'read_private') AS private_fragments_read,
    uniqExactIf(fragment_id, kind = 'read_shared') AS shared_fragments_read,
    uniqExactIf(fragment_id, kind = 'written') AS fragments_written
FROM (
    SELECT query_id, user_id, time_ns, kind, agent_id, event_id, '' AS fragment_id FROM query_facts
    UNION ALL
    SELECT query_id, user_id, time_ns, 'read' AS kind, agent_id, event_id, '' AS fragment_id
    FROM reads WHERE query_id != ''
    UNION ALL
    SELECT query_id, user_id, time_ns, concat('read_', listed_tier) AS kind, agent_id, event_id, fragment_id
    FROM read_fragments WHERE query_id != ''
    UNION ALL
    SELECT query_id, user_id, time_ns, 'written' AS kind, '' AS agent_id, event_id, fragment_id
    FROM fragments WHERE query_id != ''
)
GROUP BY query_id;

-- One row per thing a user did, for binning by time: kind is submitted,
-- resource_called, read (a memory view), read_private / read_shared (one
-- per fragment surfaced) or written.
CREATE VIEW IF NOT EXISTS user_activity AS
SELECT user_id, time_ns, kind, event_id, fragment_id FROM (
    SELECT user_id, time_ns, kind, event_id, '' AS fragment_id
    FROM query_facts WHERE kind IN ('submitted', 'resource_called')
    UNION ALL
    SELECT user_id, time_ns, 'read' AS kind, event_id, '' AS fragment_id FROM reads
    UNION ALL
    SELECT user_id, time_ns, concat('read_', listed_tier) AS kind, event_id, fragment_id FROM read_fragments
    UNION ALL
    SELECT user_id, time_ns, 'written' AS kind, event_id, fragment_id FROM fragments
);

-- Memory reuse: every read of a fragment by a user other than the one it
-- was written for.
CREATE VIEW IF NOT EXISTS memory_reuse AS
SELECT fragment_id, event_id, time_ns, user_id AS reader, writer, writer_tier
FROM (SELECT DISTINCT fragment_id, event_id, time_ns, user_id FROM read_fragments)
ALL INNER JOIN (
    SELECT fragment_id, argMin(user_id, revision) AS writer, argMin(tier, revision) AS writer_tier
    FROM fragments GROUP BY fragment_id
) USING fragment_id
WHERE reader != writer;

-- Every (read, fragment) with whether it was admissible when served: see
-- audit/sql/read_verdicts.sql, of which this is the unfiltered copy.
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
            argMaxIf(g_granted, g_revision, g_revision > 0 AND g_revision <= graph_revision) AS edge_granted
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
                   revision AS g_revision, granted AS g_granted
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
