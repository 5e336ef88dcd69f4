package events

// TypeQueriesListed is a listing of queries served to a reader.
const TypeQueriesListed = "cmem.query.listed"

// QueriesListed records one listing of queries (GET /v1/queries, and the
// usage counts built from it) as one event: a listing is one read, so
// opening a page appends one event, not one per query listed. Each item is
// the delivery of one query, as QueryDelivered records it (its user, the
// label of what was shown, what was withheld), so the audit judges every
// query shown exactly as it judges a single delivery. Reader is who asked.
type QueriesListed struct {
	Reader        string           `json:"reader"`
	Channel       string           `json:"channel"`
	GraphRevision uint64           `json:"graph_revision"`
	Deliveries    []QueryDelivered `json:"deliveries"`
}

// EventType implements Payload.
func (*QueriesListed) EventType() string { return TypeQueriesListed }

// EventSubject implements Payload: under deliveries/, beside the single
// deliveries, outside queries/ (the pipeline's consumers never see it).
func (p *QueriesListed) EventSubject() string { return "deliveries/" + p.Reader + "/listing" }
