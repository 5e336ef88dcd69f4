package scenario

import (
	"cmp"
	"errors"
	"fmt"
	"io"
)

// Config says which scenario to run, how big, and against which cmem.
// Zero fields take the defaults of Defaults (WithDefaults).
type Config struct {
	Scenario int    // 1, 2 or 3
	Out      string // directory for report.md, results.json and the SVGs

	Overlaps       []int // Scenario 1: percent of each user's queries drawn from the global set (ρ)
	Users          int   // Scenarios 1 and 3: number of users
	QueriesPerUser int   // Scenario 1: queries per user per overlap
	Objectives     int   // Scenario 2: business objectives, each split into role subtasks
	PerCategory    int   // Scenario 3: queries per user per category in every block
	Seed           uint64
	// Isolated runs the isolated baseline (per-user agent copies) beside
	// the shared configuration in Scenarios 1 and 2.
	Isolated bool
	// Provenance is the provenance policy of the run's agents: "transitive"
	// (cmem's default) or "direct" (only the writer and the resources it
	// called, as the paper's fragments).
	Provenance string
	// Coordination lists the coordination schemes Scenario 2 compares
	// (seed 004 §3.2); each runs the shared configuration with its users
	// under that coordination policy. Participants lists the participant
	// settings ("all", "expert"; seed 004 §5) every scheme but the
	// centralized one runs with.
	Coordination, Participants []string

	// URL is a running cmem's base URL and Token its admin token; empty URL
	// starts an embedded node on a temporary data dir. NATSURL is its bus
	// (default: the URL's host on port 4222).
	URL, Token, NATSURL string
	// NATSToken is the running cmem's read-only event-stream credential
	// ($CMEM_DATA/nats-reader.token, CMEM_NATS_READER_TOKEN).
	NATSToken string

	// Progress receives a progress bar (stderr); nil draws none.
	Progress io.Writer
}

// Defaults are the sizes `make scenarios` runs (a few minutes in all on a
// 2-core machine).
var Defaults = Config{
	Overlaps:       []int{0, 25, 50, 75},
	Users:          5,
	QueriesPerUser: 20,
	Objectives:     20,
	PerCategory:    4,
	Seed:           1,
	Isolated:       true,
	Coordination:   Coordinations,
	Participants:   []string{"all", "expert"},
}

// WithDefaults returns c with its zero fields taken from Defaults, and
// Provenance "transitive".
func (c Config) WithDefaults() Config {
	if len(c.Overlaps) == 0 {
		c.Overlaps = Defaults.Overlaps
	}
	c.Users = cmp.Or(c.Users, Defaults.Users)
	c.QueriesPerUser = cmp.Or(c.QueriesPerUser, Defaults.QueriesPerUser)
	c.Objectives = cmp.Or(c.Objectives, Defaults.Objectives)
	c.PerCategory = cmp.Or(c.PerCategory, Defaults.PerCategory)
	if len(c.Coordination) == 0 {
		c.Coordination = Defaults.Coordination
	}
	if len(c.Participants) == 0 {
		c.Participants = Defaults.Participants
	}
	c.Provenance = cmp.Or(c.Provenance, "transitive")
	c.Seed = cmp.Or(c.Seed, Defaults.Seed)
	return c
}

// Validate reports every problem with c, its defaults filled.
func (c Config) Validate() error {
	c = c.WithDefaults()
	var errs []error
	if c.Scenario < 1 || c.Scenario > 3 {
		errs = append(errs, fmt.Errorf("scenario: Scenario must be 1, 2 or 3, not %d", c.Scenario))
	}
	if c.Out == "" {
		errs = append(errs, errors.New("scenario: Out (the output directory) is required"))
	}
	for _, o := range c.Overlaps {
		if o < 0 || o > 100 {
			errs = append(errs, fmt.Errorf("scenario: Overlaps: overlap %d%% outside 0..100", o))
		}
	}
	if c.Users < 0 || c.Users > 50 {
		errs = append(errs, fmt.Errorf("scenario: Users %d outside 1..50", c.Users))
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"QueriesPerUser", c.QueriesPerUser}, {"Objectives", c.Objectives}, {"PerCategory", c.PerCategory}} {
		if f.v < 0 {
			errs = append(errs, fmt.Errorf("scenario: %s must not be negative, got %d", f.name, f.v))
		}
	}
	if c.Provenance != "transitive" && c.Provenance != "direct" {
		errs = append(errs, fmt.Errorf("scenario: Provenance must be transitive or direct, not %q", c.Provenance))
	}
	errs = append(errs, checkModes(c.Coordination, c.Participants)...)
	if c.URL != "" && (c.Token == "" || c.NATSToken == "") {
		errs = append(errs, errors.New("scenario: a running cmem (URL) needs its admin token (Token) and its bus reader token (NATSToken)"))
	}
	return errors.Join(errs...)
}
