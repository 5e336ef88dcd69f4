package scenario

import (
	"slices"
	"strings"
	"testing"
)

// Scenario 2 runs once per coordination scheme and participants setting,
// each under its policy: the rounds each answer took show the scheme (a
// lone agent answers twice in the layered scheme, every agent the director
// may invoke speaks once in the decentralized one), and the multi-part
// questions are answered part by part.
func TestScenario2ComparesCoordinationSchemes(t *testing.T) {
	res := run(t, Config{Scenario: 2, Objectives: 2})
	var names []string
	mode := map[string]S2Mode{}
	for _, m := range res.S2.Modes {
		names = append(names, m.Name())
		mode[m.Name()] = m
		if m.Queries != 2*len(s2Roles) || len(m.Roles) != len(s2Roles) {
			t.Errorf("%s: %d queries, %d roles", m.Name(), m.Queries, len(m.Roles))
		}
		if m.RoundsPerQ < 1 {
			t.Errorf("%s: %.2f rounds per query", m.Name(), m.RoundsPerQ)
		}
	}
	want := []string{"centralized", "decentralized/all", "decentralized/expert", "layered/all", "layered/expert", "shared_pool/all", "shared_pool/expert"}
	if !slices.Equal(names, want) {
		t.Fatalf("modes %v, want %v", names, want)
	}
	role := func(m, r string) S2ModeRole {
		for _, x := range mode[m].Roles {
			if x.Role == r {
				return x
			}
		}
		t.Fatalf("%s: no role %s", m, r)
		return S2ModeRole{}
	}
	if got := role("layered/all", "market_researcher").RoundsPerQ; got != 2 {
		t.Errorf("layered, one agent: %.2f rounds per query, want 2 (layer one, then layer two)", got)
	}
	if got := role("decentralized/all", "strategy_director").RoundsPerQ; got != 4 {
		t.Errorf("decentralized, four agents: %.2f rounds per query, want 4", got)
	}
	if got := role("centralized", "market_researcher").RoundsPerQ; got != 1 {
		t.Errorf("centralized, one agent: %.2f rounds per query, want 1", got)
	}
	if got := role("centralized", "strategy_director").Accuracy; got < 0.5 {
		t.Errorf("centralized: the director's three-part questions answered %.2f of the time", got)
	}
	if !slices.Contains(res.Files, "scenario-2-modes.svg") || !slices.Contains(res.Files, "scenario-2-mode-layered-expert.svg") {
		t.Errorf("files %v lack the schemes' charts", res.Files)
	}
}

// An unknown scheme or participants setting is refused before anything
// runs, naming what is allowed.
func TestConfigRefusesUnknownSchemes(t *testing.T) {
	cfg := Config{Scenario: 2, Out: t.TempDir(), Coordination: []string{"layered", "hierarchical"}, Participants: []string{"some"}}
	cfg = cfg.WithDefaults()
	err := cfg.Validate()
	if err == nil || !strings.Contains(err.Error(), `"hierarchical"`) || !strings.Contains(err.Error(), "shared_pool") || !strings.Contains(err.Error(), `"some"`) {
		t.Fatalf("Validate: %v", err)
	}
	cfg.Coordination, cfg.Participants = []string{"layered"}, []string{"expert"}
	if err := cfg.Validate(); err != nil {
		t.Fatalf("a known scheme refused: %v", err)
	}
}
