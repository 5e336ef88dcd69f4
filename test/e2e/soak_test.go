package e2e_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cmem/cmem/clients/httpclient"
	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/gateway"
	"github.com/cmem/cmem/node"
	"github.com/cmem/cmem/node/nodetest"
	"github.com/cmem/cmem/projectors/audit/clickhouse"
	"github.com/cmem/cmem/projectors/audit/clickhouse/clickhousetest"
	"github.com/cmem/cmem/vectors/weaviate/weaviatetest"
)

// TestChurnSoak drives one node through CMEM_SOAK_OPS operations (default
// 400, so that the soak's code runs in every test run; `make soak` runs
// 10^6): grants with and without an end, revokes, fragment writes and
// erasures, memory views and queries, chosen at random (CMEM_SOAK_SEED)
// over a small world, each checked against a reference model of the
// access graph and the live fragments:
//
//   - unauthorized: a view returned a fragment outside M(u,a,t) for every
//     t of the call, another user's private fragment, or an erased one;
//     the audit's violations report must be empty too;
//   - lost: a live fragment inside M(u,a,t) for the whole call, asked for
//     by its own key, was not returned; an accepted query did not finish;
//   - doubled: a view returned a fragment twice.
//
// All three must be 0. Throughput and memory (RSS, Go heap) are logged as
// it goes (CMEM_SOAK_OUT: also as JSON lines). CMEM_SOAK_STORES=external
// runs it on Weaviate and ClickHouse instead of the embedded defaults.
func TestChurnSoak(t *testing.T) {
	ops := envInt(t, "CMEM_SOAK_OPS", 400)
	seed := uint64(envInt(t, "CMEM_SOAK_SEED", 1))
	external := os.Getenv("CMEM_SOAK_STORES") == "external"
	n := nodetest.Start(t, func(c *node.Config) {
		c.Gateway.Limits = gateway.RateLimits{Off: true} // the soak measures churn, not the limiter
		if external {
			w, ch := weaviatetest.Shared(t), clickhousetest.Shared(t)
			c.WeaviateURL, c.WeaviateGRPC, c.WeaviateClass = w.URL, w.GRPCAddr, weaviatetest.Class(t)
			c.Audit = clickhouse.Config{DSN: ch.DSN(clickhousetest.Database("soak"))}
		}
	})
	s := newSoak(t, n, seed)
	s.run(ops)
	s.finish()
}

// soak is one run's world, model, client and counts.
type soak struct {
	t                          *testing.T
	rng                        *rand.Rand
	admin                      *httpclient.Client
	users, agents, resources   []string
	tokens                     map[string]*httpclient.Client
	m                          *soakModel
	erased                     map[string]bool
	queries                    []soakQuery
	rev                        uint64
	unauthorized, lost, double int
	views, checked, skipped    int
	unavailable, stalls        int
	longestStall               time.Duration
	retried                    bool
	counts                     map[string]int
	out                        *os.File
	start                      time.Time
}

type soakQuery struct{ id, user string }

func newSoak(t *testing.T, n *node.Node, seed uint64) *soak {
	admin, err := httpclient.New(httpclient.Config{BaseURL: "http://" + n.Addr(), Token: nodetest.AdminToken})
	if err != nil {
		t.Fatal(err)
	}
	s := &soak{t: t, rng: rand.New(rand.NewPCG(seed, 26)), admin: admin, tokens: map[string]*httpclient.Client{},
		m: newSoakModel(), erased: map[string]bool{}, counts: map[string]int{}}
	ctx := context.Background()
	for i := range 12 {
		id := fmt.Sprintf("u%d", i)
		var r struct{ Token string }
		s.must(admin.Do(ctx, http.MethodPost, "/v1/users", map[string]string{"id": id, "role": "user"}, &r))
		s.users, s.tokens[id] = append(s.users, id), admin.As(r.Token)
	}
	for i := range 6 {
		id := fmt.Sprintf("a%d", i)
		s.must(admin.Do(ctx, http.MethodPost, "/v1/agents", map[string]string{"id": id, "description": "agent " + id + " " + soakWords[i]}, nil))
		s.agents = append(s.agents, id)
	}
	for i := range 5 {
		id := fmt.Sprintf("r%d", i)
		s.must(admin.Do(ctx, http.MethodPost, "/v1/resources", map[string]any{"id": id, "kind": "knowledge_base", "description": "resource " + id,
			"documents": []map[string]string{{"id": "d", "text": "document of " + id + " about " + soakWords[i]}}}, nil))
		s.resources = append(s.resources, id)
	}
	if path := os.Getenv("CMEM_SOAK_OUT"); path != "" {
		if s.out, err = os.Create(path); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.out.Close() })
	}
	return s
}

var soakWords = strings.Fields("lyon rome budget hotel train museum wine market river castle bridge garden opera harbour")

func (s *soak) must(status int, err error) {
	s.t.Helper()
	if err != nil {
		s.t.Fatalf("status %d: %v", status, err)
	}
}

// run does ops operations, reporting every tenth of them (at most every
// 10000).
func (s *soak) run(ops int) {
	s.start = time.Now()
	every := max(1, min(10000, ops/10))
	last, lastOps := time.Now(), 0
	for i := 1; i <= ops; i++ {
		s.step(i)
		if i%every == 0 || i == ops {
			s.report(i, float64(i-lastOps)/time.Since(last).Seconds())
			last, lastOps = time.Now(), i
		}
	}
}

// step does one operation at random.
func (s *soak) step(i int) {
	switch p := s.rng.IntN(1000); {
	case p < 300:
		s.write(i)
	case p < 420:
		s.grant(true)
	case p < 500:
		s.revoke(true)
	case p < 580:
		s.grant(false)
	case p < 630:
		s.revoke(false)
	case p < 680:
		s.erase()
	case p < 995:
		s.view()
	default:
		s.query(i)
	}
}

// do calls c; a 503 (the node could not serve the call as fresh as asked
// within its read wait, e.g. while a projection snapshot is written) is
// counted and asked again, for up to a minute, and the longest such stall
// is reported. s.retried says whether the last call was retried.
func (s *soak) do(c *httpclient.Client, method, path string, body, out any) (int, error) {
	s.retried = false
	start := time.Now()
	status, err := c.Do(context.Background(), method, path, body, out)
	for errors.Is(err, domain.ErrUnavailable) && time.Since(start) < time.Minute {
		s.unavailable++
		s.retried = true
		time.Sleep(500 * time.Millisecond)
		status, err = c.Do(context.Background(), method, path, body, out)
	}
	if s.retried {
		s.stalls++
		s.longestStall = max(s.longestStall, time.Since(start))
		s.t.Logf("soak: %s %s answered 503 for %s (revision ≈ %d)", method, path, time.Since(start).Round(time.Millisecond), s.rev)
	}
	return status, err
}

func (s *soak) note(op string, rev uint64) {
	s.counts[op]++
	s.rev = max(s.rev, rev)
}

// finish waits for every query, asks the audit for violations and fails
// on any count but 0.
func (s *soak) finish() {
	ctx := context.Background()
	stranded := 0
	deadline := time.Now().Add(5 * time.Minute)
	for _, q := range s.queries {
		for {
			var r struct{ Status string }
			s.must(s.tokens[q.user].Do(ctx, http.MethodGet, "/v1/queries/"+q.id+"?wait=10", nil, &r))
			if r.Status == "answered" || r.Status == "failed" {
				s.counts["query-"+r.Status]++
				break
			}
			if time.Now().After(deadline) {
				stranded++
				s.t.Errorf("lost: query %s still %s", q.id, r.Status)
				break
			}
		}
	}
	s.lost += stranded
	var violations json.RawMessage
	s.must(s.admin.Do(ctx, http.MethodGet, "/v1/audit/violations?min_revision="+strconv.FormatUint(s.rev, 10), nil, &violations))
	var rows []any
	if err := json.Unmarshal(violations, &rows); err != nil || len(rows) != 0 {
		s.unauthorized += len(rows)
		s.t.Errorf("audit violations: %.500s (%v)", violations, err)
	}
	s.t.Logf("soak: %d unauthorized, %d lost, %d doubled; %d views (%d targets checked, %d ambiguous at an expiry), %d live fragments, ops %v, %.0f s; %d calls stalled on 503 (%d refusals, longest %s)",
		s.unauthorized, s.lost, s.double, s.views, s.checked, s.skipped, len(s.m.fragments), s.counts, time.Since(s.start).Seconds(),
		s.stalls, s.unavailable, s.longestStall.Round(time.Millisecond))
	if s.unauthorized+s.lost+s.double != 0 {
		s.t.Fatal("the soak found unauthorized, lost or doubled deliveries")
	}
	if s.views == 0 || s.counts["write"] == 0 {
		s.t.Fatal("the soak checked nothing")
	}
}

// report logs throughput and memory: the process's RSS and the live Go
// heap (the node runs in this process).
func (s *soak) report(ops int, rate float64) {
	var ms runtime.MemStats
	runtime.GC() // the live heap, not the garbage of the last interval
	runtime.ReadMemStats(&ms)
	line := map[string]any{"ops": ops, "seconds": time.Since(s.start).Seconds(), "ops_per_s": rate, "rss_mb": rssMB(),
		"heap_mb": float64(ms.HeapAlloc) / (1 << 20), "live_fragments": len(s.m.fragments), "revision": s.rev,
		"unauthorized": s.unauthorized, "lost": s.lost, "doubled": s.double}
	b, _ := json.Marshal(line)
	s.t.Logf("soak %s", b)
	if s.out != nil {
		_, _ = s.out.Write(append(b, '\n'))
	}
}

// rssMB is this process's resident set (Linux), 0 elsewhere.
func rssMB() float64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseFloat(f[1], 64)
	return pages * float64(os.Getpagesize()) / (1 << 20)
}

func envInt(t *testing.T, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		t.Fatalf("%s=%q: want a positive integer", name, v)
	}
	return n
}

func pick[T any](rng *rand.Rand, xs []T) T { return xs[rng.IntN(len(xs))] }
