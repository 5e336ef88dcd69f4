package domain

import "time"

// Fragment is a memory fragment as the API shows it (F in contract v1).
// The server writes it (package app) and the Go client reads it
// (package httpclient): one type, so the two cannot drift apart.
type Fragment struct {
	ID        string    `json:"id"`
	Key       string    `json:"key"`
	Value     string    `json:"value"`
	Tier      string    `json:"tier"`
	User      string    `json:"user"`
	Agents    []string  `json:"agents"`
	Resources []string  `json:"resources"`
	CreatedAt time.Time `json:"created_at"`
	Revision  uint64    `json:"revision"`
	// ObservedAt is when the fact was observed or is about (its valid
	// time), given by the writer; CreatedAt (the record time) when none was.
	ObservedAt time.Time `json:"observed_at,omitzero"`
	// TimeRefs are the relative time expressions of Key and Value resolved
	// against ObservedAt when the fragment was written.
	TimeRefs []TimeRef `json:"time_refs,omitempty"`
	// DerivedFrom lists the fragments this one was written from that the
	// reader may itself read (views only; see app's withLineage).
	DerivedFrom []string `json:"derived_from,omitempty"`
	// Score is the similarity to the query, in views only.
	Score *float32 `json:"score,omitempty"`
	// AdmissionScore is the admission gate's final score, in the answer to
	// a write that passed one (seed 002 Eq. 1).
	AdmissionScore *float64 `json:"admission_score,omitempty"`
	// Supersedes is the earlier version of the same fact this write
	// superseded, in the answer to a write only (its writer could read it).
	Supersedes string `json:"supersedes,omitempty"`
}

// TimeRef is a time expression of a fragment's text ("last week") and the
// interval [Start, End) it names, at a grain: day, week, month, season or
// year.
type TimeRef struct {
	Text  string    `json:"text"`
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	Grain string    `json:"grain"`
}

// FragmentVersion is one version of a fact in a history: the fragment
// (observed_at its valid time, created_at and revision its record time)
// and, for every version but the reader's current one, when the next
// version that reader may read took over.
type FragmentVersion struct {
	Fragment
	ValidUntil *time.Time `json:"valid_until,omitempty"`
}

// History is a fact's versions as one reader may see them, oldest observed
// first; Current is the one current for that reader; Revision is where the
// read was recorded, GraphRevision the access graph it was checked against.
type History struct {
	Versions      []FragmentVersion `json:"versions"`
	Current       string            `json:"current"`
	Revision      uint64            `json:"revision"`
	GraphRevision uint64            `json:"graph_revision"`
}
