// Package graphmem owns graph memory (paper 003, G-Memory): a projection of
// the log with three tiers, and the traversal that serves it under the read
// rule.
//
//   - Interaction graphs: the utterances of a finished query, in order: for
//     each round the coordinator's subquery to the chosen agent
//     (AgentSelected, kind "selected") and the agent's response
//     (AgentResponded, kind "responded"), each with its event's label.
//   - The query graph: a user's finished queries with their status
//     ("answered" or "failed") and semantic edges between every two whose
//     texts' embeddings (the configured embedder) reach
//     Config.EdgeThreshold. A query's provenance is the union of its
//     utterances' labels (and its answer's).
//   - Insight graphs: insights distilled from successes and failures (see
//     Distill for the rules), each with its supporting queries; its
//     provenance is the union of theirs.
//
// Retrieve serves paper 003 Eq. 4–8: the k queries most similar to the new
// query (Eq. 4), their 1-hop neighbours (Eq. 5), upward to the insights
// whose supporting queries meet that set (Eq. 6), downward to the key
// interactions of the M most similar of them (Eq. 7, the sparsifier being
// a rule: the subquery and the response of every round an agent answered),
// and the insights ordered for the reading agent's role first (Eq. 8).
// Every node it returns, and every node it passes through, is admitted by
// the caller's Admit function, which the application answers with
// access.Admits for (u, a, t): a revoke hides at once every query and
// utterance whose label needs the revoked edge, and every insight that
// rests on such a query.
//
// Scope: a user's graph holds that user's queries only, as the private tier
// does. Content crosses users through the shared tier, where the
// write_shared policy decides what may cross (anonymise, redact, block);
// graph memory does not open a second channel around it.
//
// Erasure: a query whose content was erased (its user was, it read an
// erased fragment, or its key is gone so its text opens to events.Erased)
// leaves every tier: its node, its utterances, and its place in insights,
// which are recomputed from what remains. Insights are a pure function of
// the queries present, and edges of pairs of them, so the projection
// rebuilt from the log equals the live one.
//
// Distillation is offline and rule-based; an LLM summariser (the paper's
// J) is not wired in: to stay a deterministic projection it would have to
// record its insights as events.
package graphmem
