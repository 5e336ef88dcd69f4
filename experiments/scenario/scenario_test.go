package scenario

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// run runs cfg on an embedded node and checks what every scenario must
// show: no audited violation, no use outside the graph, and its files.
func run(t *testing.T, cfg Config) *Results {
	t.Helper()
	cfg.Out = t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violations != 0 || res.OutsideGrant != 0 {
		t.Fatalf("violations %d, uses outside the graph %d; want 0", res.Violations, res.OutsideGrant)
	}
	if res.Queries == 0 {
		t.Fatal("no queries ran")
	}
	svgs := 0
	for _, f := range res.Files {
		raw, err := os.ReadFile(filepath.Join(cfg.Out, f))
		if err != nil {
			t.Fatal(err)
		}
		switch filepath.Ext(f) {
		case ".svg":
			svgs++
			parseSVG(t, f, raw)
		case ".json":
			var back Results
			if err := json.Unmarshal(raw, &back); err != nil || back.Scenario != cfg.Scenario {
				t.Fatalf("%s: %v (scenario %d)", f, err, back.Scenario)
			}
		case ".md":
			if !strings.Contains(string(raw), "Audited violations") || !strings.Contains(string(raw), ".svg)") {
				t.Fatalf("%s lacks the violations line or the charts:\n%s", f, raw)
			}
		}
	}
	if svgs == 0 {
		t.Fatal("no chart written")
	}
	return res
}

// parseSVG requires well-formed XML whose root is <svg>.
func parseSVG(t *testing.T, name string, raw []byte) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(string(raw)))
	root := ""
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s is not XML: %v", name, err)
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		t.Fatalf("%s: root element %q, want svg", name, root)
	}
}

func TestScenario1SharedNeverCostsMore(t *testing.T) {
	res := run(t, Config{Scenario: 1, Overlaps: []int{0, 50}, Users: 3, QueriesPerUser: 4, Isolated: true, Provenance: "direct"})
	for _, rho := range []int{0, 50} {
		sh, iso := res.S1.run(rho, "shared"), res.S1.run(rho, "isolated")
		if sh == nil || iso == nil {
			t.Fatalf("ρ=%d: runs missing", rho)
		}
		if sh.ResourceCalls > iso.ResourceCalls {
			t.Errorf("ρ=%d%%: shared memory made %d resource calls, isolated %d", rho, sh.ResourceCalls, iso.ResourceCalls)
		}
		if len(sh.Cumulative) != 4 || sh.Cumulative[3] != sh.ResourceCalls {
			t.Errorf("ρ=%d%%: cumulative curve %v does not end at %d", rho, sh.Cumulative, sh.ResourceCalls)
		}
	}
	// Half of every user's questions are global: with memory shared, only
	// their first asker calls a resource.
	if r := res.S1.Reduction(50); r <= 0 {
		t.Errorf("ρ=50%%: reduction %.2f, want > 0", r)
	}
}

func TestScenario2PartialSharingSavesCalls(t *testing.T) {
	res := run(t, Config{Scenario: 2, Objectives: 3, Isolated: true, Coordination: []string{"centralized"}})
	if len(res.S2.Modes) != 1 || res.S2.Modes[0].Coordination != "centralized" {
		t.Errorf("modes %+v, want the centralized run alone", res.S2.Modes)
	}
	sh, iso := 0, 0
	for _, u := range res.S2.Users {
		if u.Shared > u.Isolated {
			t.Errorf("%s: %d resource calls shared, %d isolated", u.Role, u.Shared, u.Isolated)
		}
		sh, iso = sh+u.Shared, iso+u.Isolated
	}
	if sh > iso || iso == 0 {
		t.Errorf("all users: %d calls shared, %d isolated", sh, iso)
	}
}

func TestScenario3UsesStayInsideTheGraph(t *testing.T) {
	res := run(t, Config{Scenario: 3, Users: 3, PerCategory: 1})
	if n := len(res.S3.Blocks); n != 9 { // 15 edges: 3 more per block t0–t4, 3 fewer t5–t8
		t.Fatalf("%d blocks, want 9", n)
	}
	for _, blk := range res.S3.Blocks {
		m := blk.Matrix
		for u := range m.Users {
			for a := range m.Agents {
				if m.AgentUse[u][a] > 0 && !m.AgentGranted[u][a] {
					t.Errorf("%s: %s used %s without a grant", blk.Block, m.Users[u], m.Agents[a])
				}
			}
			for r := range m.Resources {
				if m.ResourceUse[u][r] > 0 && !m.ResourceGranted[u][r] {
					t.Errorf("%s: %s reached %s without a grant", blk.Block, m.Users[u], m.Resources[r])
				}
			}
		}
	}
	first, full := res.S3.Blocks[0], res.S3.Blocks[4]
	if full.Edges != 15 || full.Agents < first.Agents {
		t.Errorf("agents per query %.2f at %d edges, %.2f at %d", full.Agents, full.Edges, first.Agents, first.Edges)
	}
}

// The outside-grant check counts a use no grant covered.
func TestMatrixCountsUsesOutsideTheGraph(t *testing.T) {
	blocks := []access{{"u1": {"a1": {"r1"}}}}
	qs := []asked{{ID: "q1", User: "u1", Agents: []string{"a1"}}, {ID: "q2", User: "u1", Agents: []string{"a2"}}}
	blockOf := map[string]int{"q1": 0, "q2": 0}
	calls := []resourceCall{{QueryID: "q1", User: "u1", Agent: "a1", Resource: "r1"}, {QueryID: "q1", User: "u1", Agent: "a1", Resource: "r2"}}
	m := buildMatrix([]string{"u1"}, []string{"a1", "a2"}, []string{"r1", "r2"}, qs, blockOf, blocks, calls)
	if m.Outside != 2 {
		t.Fatalf("outside %d, want 2 (agent a2, resource r2)", m.Outside)
	}
	if m.AgentUse[0][1] != 1 || m.AgentGranted[0][1] || m.ResourceUse[0][0] != 1 || !m.ResourceGranted[0][0] {
		t.Fatalf("matrix %+v", m)
	}
}

func TestEvolveGrantsThenRevokes(t *testing.T) {
	for seed := range uint64(20) {
		g := evolve(newNamer(seed).r, 5, 5, 0.2)
		want := []int{5, 10, 15, 20, 25, 20, 15, 10, 5}
		if len(g) != len(want) {
			t.Fatalf("seed %d: %d blocks", seed, len(g))
		}
		for i, b := range g {
			if len(b) != want[i] {
				t.Fatalf("seed %d: block t%d has %d edges, want %d", seed, i, len(b), want[i])
			}
			if i == 0 {
				continue
			}
			small, big := g[i-1], b // each graph grows from, or shrinks into, the one before
			if i > 4 {
				small, big = b, g[i-1]
			}
			in := map[[2]int]bool{}
			for _, e := range big {
				in[e] = true
			}
			for _, e := range small {
				if !in[e] {
					t.Fatalf("seed %d: t%d and t%d are not nested", seed, i-1, i)
				}
			}
		}
	}
}
