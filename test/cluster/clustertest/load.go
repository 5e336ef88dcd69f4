package clustertest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Acked is a command a gateway acknowledged: the revision it answered and
// what the log must hold there.
type Acked struct {
	Revision uint64
	Type     string
	Subject  string // every fragment has a subject of its own
}

// Load is a bounded mixed load through every gateway: grants and revokes
// each followed by a read through the other gateway, fragment writes and
// queries. It records what was acknowledged and accepted for the checks.
type Load struct {
	c     *Cluster
	users map[string]string // id → token

	mu      sync.Mutex
	acked   []Acked
	queries []string
	stale   []string
	log     []Event // as the last Check read it

	seq       atomic.Int64
	Reads     atomic.Int64 // reads after an acknowledged revoke
	Refused   atomic.Int64 // requests a fault made fail (not acknowledged)
	Commands  atomic.Int64 // commands acknowledged
	Fragments atomic.Int64 // fragment writes acknowledged
	// Shown counts memory views after a grant that showed fragments the
	// grant admits (the revoke check's counterpart).
	Shown     atomic.Int64
	revokers  int
	writers   int
	QueryGap  time.Duration
	OpPause   time.Duration
	queryUser []string
}

// Setup registers the load's principals through the first gateway: users
// w0,w1 writing fragments and asking queries through agent "scribe", which
// may call resource "archive" (an HTTP resource at resourceURL); users
// r0,r1 who keep agent "guard" and whose grant of "scribe" is toggled.
func Setup(t testing.TB, c *Cluster, resourceURL string) *Load {
	t.Helper()
	l := &Load{c: c, users: map[string]string{}, revokers: 2, writers: 2, QueryGap: 300 * time.Millisecond,
		OpPause: 20 * time.Millisecond}
	base := c.Gateways[0].Base()
	must := func(method, path string, body any, want int) map[string]any {
		st, b, err := Call(method, base+path, AdminToken, body)
		if err != nil || st != want {
			t.Fatalf("%s %s: %d %v %v", method, path, st, b, err)
		}
		return b
	}
	must("POST", "/v1/agents", map[string]string{"id": "scribe", "description": "archive facts history records"}, 201)
	must("POST", "/v1/agents", map[string]string{"id": "guard", "description": "guards the gate"}, 201)
	must("POST", "/v1/resources", map[string]any{"id": "archive", "kind": "http",
		"description": "archive facts history records", "url": resourceURL}, 201)
	must("PUT", "/v1/grants/agent-resource/scribe/archive", nil, 200)
	for i := range l.writers {
		id := fmt.Sprintf("w%d", i)
		l.users[id] = must("POST", "/v1/users", map[string]string{"id": id}, 201)["token"].(string)
		must("PUT", "/v1/grants/user-agent/"+id+"/scribe", nil, 200)
		l.queryUser = append(l.queryUser, id)
	}
	for i := range l.revokers {
		id := fmt.Sprintf("r%d", i)
		l.users[id] = must("POST", "/v1/users", map[string]string{"id": id}, 201)["token"].(string)
		must("PUT", "/v1/grants/user-agent/"+id+"/guard", nil, 200)
	}
	// One shared fragment through scribe before the load, so that every
	// grant's view can show something however slowly the writers start
	// (Shown must be able to count on a loaded machine).
	// A 503 is a gateway whose projections have not caught up with the
	// grants within its read wait (a loaded machine): nothing was written,
	// and the contract says ask again.
	seed := map[string]any{"agent": "scribe", "key": "k-seed", "value": "archive fact k-seed", "tier": "shared"}
	st, b, err := Call("POST", base+"/v1/fragments", l.users["w0"], seed)
	for deadline := time.Now().Add(time.Minute); err == nil && st == 503 && time.Now().Before(deadline); {
		st, b, err = Call("POST", base+"/v1/fragments", l.users["w0"], seed)
	}
	if err != nil || st != 201 {
		t.Fatalf("seed fragment: %d %v %v", st, b, err)
	}
	l.ackFragments("w0", b)
	return l
}

// ackFragments records the fragments a write answered with as
// acknowledged commands of user.
func (l *Load) ackFragments(user string, answer map[string]any) {
	// The log holds a fragment's key and value sealed (erasure): it is
	// found by its subject, which names its id.
	frags, _ := answer["fragments"].([]any)
	for _, f := range frags {
		fm, _ := f.(map[string]any)
		id, _ := fm["id"].(string)
		rev, _ := fm["revision"].(float64)
		l.ack(Acked{Revision: uint64(rev), Type: "cmem.fragment.written", Subject: "fragments/" + user + "/" + id})
		l.Fragments.Add(1)
	}
}

func (l *Load) gw(i int) *Proc { return l.c.Gateways[i%len(l.c.Gateways)] }

func (l *Load) ack(a Acked) {
	l.mu.Lock()
	l.acked = append(l.acked, a)
	l.mu.Unlock()
	l.Commands.Add(1)
}

// Run drives the load until ctx ends.
func (l *Load) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for i := range l.revokers {
		wg.Go(func() { l.revoker(ctx, i) })
	}
	for i := range l.writers {
		wg.Go(func() { l.writer(ctx, i) })
	}
	wg.Go(func() { l.asker(ctx) })
	wg.Wait()
}

func (l *Load) pause(ctx context.Context, d time.Duration) bool {
	select {
	case <-ctx.Done():
		return false
	case <-time.After(d):
		return true
	}
}

// revoker grants and revokes user r<i>'s agent "scribe" (r<i> keeps
// "guard") through one gateway and, after each acknowledged revoke, reads
// through the other: A(r<i>) must not list scribe, a memory view through
// scribe is refused, and a memory view through guard shows no shared
// fragment whose provenance names scribe (what w0 and w1 share through
// it). After each grant the same view may show them: counted in Shown, so
// that the check is seen to be able to fail.
func (l *Load) revoker(ctx context.Context, i int) {
	user := fmt.Sprintf("r%d", i)
	path := "/v1/grants/user-agent/" + user + "/scribe"
	subject := "grants/user-agent/" + user + "/scribe"
	for n := 0; l.pause(ctx, l.OpPause); n++ {
		w, r := l.gw(i+n), l.gw(i+n+1)
		for _, grant := range []bool{true, false} {
			method, typ := "PUT", "cmem.user_agent.granted"
			if !grant {
				method, typ = "DELETE", "cmem.user_agent.revoked"
			}
			st, b, err := Call(method, w.Base()+path, AdminToken, nil)
			if err != nil || st != 200 {
				l.Refused.Add(1)
				break
			}
			l.ack(Acked{Revision: Revision(b), Type: typ, Subject: subject})
			if grant {
				if shown, ok := l.sharedThroughGuard(r, user); ok && shown > 0 {
					l.Shown.Add(1)
				}
				continue
			}
			l.afterRevoke(w, r, user)
		}
	}
}

// afterRevoke reads through gateway r what user may see once its grant of
// scribe was revoked through w.
func (l *Load) afterRevoke(w, r *Proc, user string) {
	st, b, err := Call("GET", r.Base()+"/v1/access/"+user, AdminToken, nil)
	if err != nil || st != 200 {
		l.Refused.Add(1)
	} else {
		l.Reads.Add(1)
		if agents, _ := b["agents"].([]any); slices.Contains(agents, any("scribe")) {
			l.staleRead(fmt.Sprintf("access through %s after revoke at %s: %v", r.Addr, w.Addr, b))
		}
	}
	// The user's own memory view through the revoked agent: refused.
	st, b, err = Call("POST", r.Base()+"/v1/memory/view", l.users[user], map[string]any{"agent": "scribe", "query": "archive fact"})
	switch {
	case err != nil || st >= 500:
		l.Refused.Add(1)
	case st != 403:
		l.staleRead(fmt.Sprintf("memory view through %s after revoke at %s: %d %v", r.Addr, w.Addr, st, b))
	default:
		l.Reads.Add(1)
	}
	// Through the agent it keeps: nothing that scribe's grant admitted.
	if shown, ok := l.sharedThroughGuard(r, user); ok {
		l.Reads.Add(1)
		if shown > 0 {
			l.staleRead(fmt.Sprintf("memory view through guard at %s after revoke at %s: %d fragments of scribe", r.Addr, w.Addr, shown))
		}
	}
}

// sharedThroughGuard asks user's memory view through guard at gateway g
// and counts the shared fragments in it whose provenance names scribe; ok
// is false when the read failed (a fault).
func (l *Load) sharedThroughGuard(g *Proc, user string) (shown int, ok bool) {
	st, b, err := Call("POST", g.Base()+"/v1/memory/view", l.users[user], map[string]any{
		"agent": "guard", "query": "archive fact", "k_user": 0, "k_cross": 20, "min_score": -1})
	if err != nil || st != 200 {
		l.Refused.Add(1)
		return 0, false
	}
	shared, _ := b["shared"].([]any)
	for _, f := range shared {
		fm, _ := f.(map[string]any)
		if agents, _ := fm["agents"].([]any); slices.Contains(agents, any("scribe")) {
			shown++
		}
	}
	return shown, true
}

func (l *Load) staleRead(s string) {
	l.mu.Lock()
	l.stale = append(l.stale, s)
	l.mu.Unlock()
}

// writer writes fragments with unique keys as user w<i>, every other one
// shared (readable by whoever may invoke scribe).
func (l *Load) writer(ctx context.Context, i int) {
	user := fmt.Sprintf("w%d", i)
	for n := 0; l.pause(ctx, l.OpPause); n++ {
		seq := l.seq.Add(1)
		key, tier := fmt.Sprintf("k-%d", seq), "private"
		if seq%2 == 0 {
			tier = "shared"
		}
		st, b, err := Call("POST", l.gw(i+n).Base()+"/v1/fragments", l.users[user], map[string]any{
			"agent": "scribe", "key": key, "value": "archive fact " + key, "tier": tier})
		if err != nil || st != 201 {
			l.Refused.Add(1)
			continue
		}
		l.ackFragments(user, b)
	}
}

// asker submits queries that call the archive, without waiting.
func (l *Load) asker(ctx context.Context) {
	for n := 0; l.pause(ctx, l.QueryGap); n++ {
		user := l.queryUser[n%len(l.queryUser)]
		st, b, err := Call("POST", l.gw(n).Base()+"/v1/queries", l.users[user], map[string]any{
			"text": fmt.Sprintf("archive history records item %d", n), "wait": false})
		if err != nil || (st != 202 && st != 200) {
			l.Refused.Add(1)
			continue
		}
		l.mu.Lock()
		l.queries = append(l.queries, user+"/"+b["id"].(string))
		l.mu.Unlock()
	}
}

// Queries is every accepted query as user/id.
func (l *Load) Queries() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.queries)
}

// Stale is every read that showed an edge after its revoke was acknowledged.
func (l *Load) Stale() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.stale)
}

// AckedCommands is every acknowledged command so far.
func (l *Load) AckedCommands() []Acked {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.acked)
}

// Token is user's bearer token.
func (l *Load) Token(user string) string { return l.users[user] }

// Log is the event log as the last Check read it.
func (l *Load) Log() []Event {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.log
}
