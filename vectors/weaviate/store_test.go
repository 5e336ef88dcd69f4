package weaviate

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/vectors"
	"github.com/cmem/cmem/vectors/vectorstest"
	"github.com/cmem/cmem/vectors/weaviate/weaviatetest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	dropBenchStores()
	weaviatetest.StopShared()
	os.Exit(code)
}

// open opens a store on its own class of the shared server and drops the
// class when the test ends.
func open(tb testing.TB, cfg Config) *Store {
	tb.Helper()
	s := openKept(tb, cfg)
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := s.Drop(ctx); err != nil {
			tb.Errorf("Drop: %v", err)
		}
	})
	return s
}

// openKept opens a store on its own class (cfg.Class, or the test's) of
// the shared server, without dropping it at the end: the restart tests
// close it and open the class again.
func openKept(tb testing.TB, cfg Config) *Store {
	tb.Helper()
	srv := weaviatetest.Shared(tb)
	cfg.URL, cfg.GRPCAddr = srv.URL, srv.GRPCAddr
	if cfg.Class == "" {
		cfg.Class = weaviatetest.Class(tb)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := Open(ctx, cfg)
	if err != nil {
		tb.Fatalf("Open: %v\nserver log:\n%s", err, srv.LogTail(20))
	}
	return s
}

// TestContract runs the store contract with the exclusion filter, still
// available by config (TestReaderLabelsContract runs it on the default).
func TestContract(t *testing.T) {
	vectorstest.Run(t, func(t *testing.T, dims int) vectors.Store {
		return open(t, Config{Dims: dims, ExclusionFilter: true})
	})
}

// Recall of the filtered HNSW path against exact brute force. The class
// gets flatSearchCutoff 1 so that Weaviate cannot fall back to scanning
// the allow-list (which it does below 40000 candidates by default, and
// which the second subtest checks is exact).
func TestRecall(t *testing.T) {
	for _, tc := range []struct {
		name      string
		cutoff    int
		minRecall float64
	}{
		{"hnsw", 1, 0.95},
		{"flat", 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const dims, n, queries, k = 64, 2000, 60, 10
			s := open(t, Config{Dims: dims, FlatSearchCutoff: tc.cutoff})
			g := vectorstest.NewGen(42, dims, vectorstest.SmallMix)
			ref := vectorstest.NewReference()
			fs := g.Fragments(n)
			if err := s.Upsert(t.Context(), fs); err != nil {
				t.Fatal(err)
			}
			ref.Upsert(fs)
			var sum float64
			for range queries {
				f := g.Filter(0.6)
				q := g.Vector()
				hits, err := s.Search(t.Context(), q, f, k)
				if err != nil {
					t.Fatal(err)
				}
				for _, h := range hits {
					if m, _ := ref.Fragment(h.ID); !vectorstest.Matches(m, f) {
						t.Fatalf("hit %s does not match its filter", h.ID)
					}
				}
				sum += vectorstest.Recall(hits, ref.Search(q, f, k))
			}
			recall := sum / queries
			t.Logf("recall@%d over %d filtered queries on %d fragments: %.4f", k, queries, n, recall)
			if recall < tc.minRecall {
				t.Fatalf("recall@%d = %.4f, want ≥ %.2f", k, recall, tc.minRecall)
			}
		})
	}
}

func TestOpenIsIdempotent(t *testing.T) {
	s := open(t, Config{Dims: 4})
	f := vectors.Fragment{ID: "0190e4a0-0000-7000-8000-000000000001", Tier: "shared", User: "u",
		Agents: []string{"a"}, Vector: []float32{1, 0, 0, 0}}
	if err := s.Upsert(t.Context(), []vectors.Fragment{f}); err != nil {
		t.Fatal(err)
	}
	again, err := Open(t.Context(), s.Config())
	if err != nil {
		t.Fatalf("second Open of an existing class: %v", err)
	}
	if n, err := again.Count(t.Context()); err != nil || n != 1 {
		t.Fatalf("Count through the second store = %d, %v; want 1", n, err)
	}
}

func TestUpsertRejectsNonUUID(t *testing.T) {
	s := open(t, Config{Dims: 2})
	err := s.Upsert(t.Context(), []vectors.Fragment{{ID: "not-a-uuid", Tier: "shared", Agents: []string{"a"}, Vector: []float32{1, 0}}})
	if err == nil || !strings.Contains(err.Error(), "not a UUID") {
		t.Fatalf("Upsert of a non-UUID id: %v", err)
	}
}

func TestConfigValidate(t *testing.T) {
	if err := (Config{URL: "http://127.0.0.1:8080", Dims: 3}).Validate(); err != nil {
		t.Fatalf("minimal config: %v", err)
	}
	err := Config{URL: "127.0.0.1:8080", GRPCAddr: "nohost", Class: "lower", BatchSize: -1}.Validate()
	if err == nil {
		t.Fatal("a bad config validated")
	}
	for _, want := range []string{"URL", "GRPCAddr", "class", "Dims", "BatchSize"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Validate error does not mention %s: %v", want, err)
		}
	}
	d := Config{}.WithDefaults()
	if d.Class != DefaultClass || d.BatchSize != DefaultBatchSize || d.RequestTimeout != DefaultRequestTimeout {
		t.Fatalf("defaults not applied: %+v", d)
	}
}

func TestWhereFilter(t *testing.T) {
	private := whereFor(vectors.NewFilter("private", "alice", []string{"a"}, []string{"a", "b"}, nil, nil)).String()
	for _, want := range []string{`operator: And`, `path: ["tier"] valueText: "private"`, `path: ["user"] valueText: "alice"`,
		`operator: Not operands:[{operator: ContainsAny path: ["agents"] valueText: ["b"]}]`} {
		if !strings.Contains(private, want) {
			t.Errorf("private filter lacks %s:\n%s", want, private)
		}
	}
	if strings.Contains(private, `"resources"`) {
		t.Errorf("nothing is excluded from resources, yet the filter tests them:\n%s", private)
	}
	sharedOnly := whereFor(vectors.NewFilter("shared", "alice", []string{"a"}, []string{"a"}, nil, nil)).String()
	if strings.Contains(sharedOnly, "user") || strings.Contains(sharedOnly, "Not") {
		t.Errorf("shared filter with nothing excluded should test the tier only:\n%s", sharedOnly)
	}
}

// TestHybridContract runs the hybrid contract on the default (reader
// labels) and with the exclusion filter.
func TestHybridContract(t *testing.T) {
	for name, exclusion := range map[string]bool{"labels": false, "exclusion": true} {
		t.Run(name, func(t *testing.T) {
			vectorstest.RunHybrid(t, func(t *testing.T, dims int) vectors.Store {
				return open(t, Config{Dims: dims, ExclusionFilter: exclusion})
			}, vectorstest.HybridOptions{})
		})
	}
}
