package scenario

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/cmem/cmem/experiments/embedded"
)

// Results is everything one run measured; results.json is this value.
type Results struct {
	Scenario   int       `json:"scenario"`
	Seed       uint64    `json:"seed"`
	Model      string    `json:"model"` // "offline" or the OpenAI-compatible base URL
	Provenance string    `json:"provenance"`
	Started    time.Time `json:"started"`
	Seconds    float64   `json:"seconds"`
	Queries    int       `json:"queries"`
	Violations int       `json:"violations"` // /v1/audit/violations over the run: must be 0
	// OutsideGrant counts audited uses (an agent in a query, a resource
	// call on the bus) by a user who had no grant covering them in that
	// block: must be 0.
	OutsideGrant int      `json:"outside_grant"`
	S1           *S1      `json:"scenario1,omitempty"`
	S2           *S2      `json:"scenario2,omitempty"`
	S3           *S3      `json:"scenario3,omitempty"`
	Files        []string `json:"files"`
}

// env is what a scenario drives: the node's API, its bus, a namespace for
// ids, and the judges.
type env struct {
	c       *client
	natsURL string
	reader  string // bus credential for reading the event stream
	ns      string // prefix of every id this run registers
	judge   *llmJudge
	bar     *progress
	cfg     Config
	lastRev uint64
}

// Run runs cfg's scenario and writes its report, results and charts to
// cfg.Out.
func Run(ctx context.Context, cfg Config) (*Results, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return nil, err
	}
	e := &env{cfg: cfg, ns: namespace(cfg.Scenario), judge: newLLMJudge()}
	if cfg.URL == "" {
		node, err := embedded.Start(ctx, embedded.Options{Source: "cmem/scenario", ReadWait: 10 * time.Second, Weaviate: true, ClickHouse: true})
		if err != nil {
			return nil, fmt.Errorf("scenario: start an embedded cmem: %w", err)
		}
		defer node.Close()
		e.natsURL, e.reader = node.NATSURL, node.Reader
		if e.c, err = newClient(node.BaseURL, node.Token); err != nil {
			return nil, err
		}
	} else {
		e.natsURL, e.reader = cfg.NATSURL, cfg.NATSToken
		var err error
		if e.c, err = newClient(cfg.URL, cfg.Token); err != nil {
			return nil, err
		}
		if e.natsURL == "" {
			u, err := url.Parse(cfg.URL)
			if err != nil {
				return nil, fmt.Errorf("scenario: URL: %w", err)
			}
			e.natsURL = "nats://" + u.Hostname() + ":4222"
		}
	}
	res := &Results{Scenario: cfg.Scenario, Seed: cfg.Seed, Model: "offline", Provenance: cfg.Provenance, Started: time.Now().UTC()}
	if u := os.Getenv("CMEM_OPENAI_BASE_URL"); u != "" {
		res.Model = u
	}
	var err error
	switch cfg.Scenario {
	case 1:
		res.S1, err = e.scenario1(ctx)
	case 2:
		res.S2, err = e.scenario2(ctx)
	case 3:
		res.S3, err = e.scenario3(ctx)
	}
	if err != nil {
		return nil, err
	}
	res.Queries = e.bar.done
	if res.Violations, err = e.c.violations(ctx, e.lastRev, res.Started); err != nil {
		return nil, err
	}
	res.OutsideGrant = res.outsideGrant()
	res.Seconds = time.Since(res.Started).Seconds()
	if err := res.write(cfg.Out); err != nil {
		return nil, err
	}
	return res, nil
}

// namespace prefixes the ids of one run, so runs against the same node
// never collide: "s1k3q" and the like.
func namespace(scenario int) string {
	const letters = "abcdefghijkmnpqrstuvwxyz23456789"
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	out := []byte{'s', byte('0' + scenario)}
	for _, x := range b {
		out = append(out, letters[int(x)%len(letters)])
	}
	return string(out)
}

// asked is one query as the driver submitted it and cmem answered it, with
// the audit trail's figures for it.
type asked struct {
	Index    int    `json:"index"`
	User     string `json:"user"`
	ID       string `json:"id"`
	Question string `json:"question"`
	Expected string `json:"expected,omitempty"`
	Answer   string `json:"answer"`
	Rounds   int    `json:"rounds"`
	Correct  bool   `json:"correct"`
	// LLMCorrect is the LLM judge's verdict when a model is configured.
	LLMCorrect    *bool    `json:"llm_correct,omitempty"`
	Agents        []string `json:"agents"`
	ResourceCalls int      `json:"resource_calls"`
	PrivateRead   int      `json:"private_fragments_read"`
	SharedRead    int      `json:"shared_fragments_read"`
	Written       int      `json:"fragments_written"`
}

// ask submits one query as the user (token) and judges it against want:
// correct when every wanted value is in the answer (no facts: not judged).
func (e *env) ask(ctx context.Context, user, token, text string, want ...fact) (asked, error) {
	a, err := e.c.query(ctx, token, text)
	if err != nil {
		return asked{}, err
	}
	if a.Status != "answered" {
		return asked{}, fmt.Errorf("query %q by %s: status %q", text, user, a.Status)
	}
	e.lastRev = max(e.lastRev, a.Revision)
	q := asked{User: user, ID: a.ID, Question: text, Answer: a.Answer, Rounds: len(a.Steps)}
	if len(want) > 0 {
		var vals []string
		q.Correct = true
		for _, f := range want {
			vals = append(vals, f.Value)
			q.Correct = q.Correct && correct(f, a.Answer)
		}
		q.Expected = strings.Join(vals, ", ")
		if e.judge != nil {
			v, err := e.judge.judge(ctx, text, q.Expected, a.Answer)
			if err != nil {
				return asked{}, err
			}
			q.LLMCorrect = &v
		}
	}
	e.bar.step()
	return q, nil
}

// agent registers an agent of this run, with the run's provenance policy.
func (e *env) agent(ctx context.Context, id, description string) error {
	if err := e.c.agent(ctx, id, description); err != nil {
		return err
	}
	if e.cfg.Provenance == "direct" {
		return e.c.policy(ctx, id, "provenance", "direct")
	}
	return nil
}

// audit fills every query's figures from /v1/audit/metrics.
func (e *env) audit(ctx context.Context, qs []asked) error {
	m, err := e.c.metrics(ctx, e.lastRev)
	if err != nil {
		return err
	}
	for i := range qs {
		row, ok := m[qs[i].ID]
		if !ok {
			return errors.New("scenario: the audit trail has no metrics for query " + qs[i].ID)
		}
		qs[i].Agents = row.Agents
		qs[i].ResourceCalls = row.ResourceCalls
		qs[i].PrivateRead = row.PrivateFragmentsRead
		qs[i].SharedRead = row.SharedFragmentsRead
		qs[i].Written = row.FragmentsWritten
	}
	return nil
}
