package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/llm"
	"github.com/cmem/cmem/projectors/memory"
	"github.com/cmem/cmem/projectors/query"
	"github.com/cmem/cmem/resources"
)

// ErrResourceRevoked is what a tool call returns when the agent lost the
// resource between the offer and the call.
var ErrResourceRevoked = errors.New("resource no longer permitted")

// caller offers an agent exactly R(a,t) of the turn's snapshot as tools and
// checks, at the moment of every call, on a fresh snapshot, that the
// resource is still permitted; every call is recorded as a ResourceCalled
// event.
type caller struct {
	p      *Pipeline
	q      query.Query
	sel    *events.AgentSelected
	cause  string
	step   func(...string) string
	tools  map[string]resources.Tool
	offers []llm.Tool

	mu     sync.Mutex
	calls  int
	ranIDs []string // called: what they returned (results or errors) was shown to the agent
	ok     []string // called successfully
	// infra is the first failure of the log during a call (a fence or the
	// ResourceCalled append): the turn is retried, not failed, when set.
	infra error
}

func (p *Pipeline) newCaller(q query.Query, sel *events.AgentSelected, snap Snapshot, cause string, step func(...string) string) *caller {
	c := &caller{p: p, q: q, sel: sel, cause: cause, step: step, tools: map[string]resources.Tool{}}
	for _, id := range p.app.view.Resources(sel.Agent, snap.Point()) {
		t, err := p.tool(id)
		if err != nil {
			p.logger.Warn("resource not offered: cannot build its tool", "resource", id, "err", err)
			continue
		}
		c.tools[id] = t
		c.offers = append(c.offers, llm.Tool{Name: id, Description: t.Description(), Parameters: t.Parameters()})
	}
	return c
}

func (c *caller) offer() []llm.Tool { return c.offers }

func (c *caller) call(ctx context.Context, name string, args json.RawMessage) (string, error) {
	c.mu.Lock()
	n := c.calls
	c.calls++
	c.mu.Unlock()
	ev := &events.ResourceCalled{QueryID: c.q.ID, User: c.q.User, Round: c.sel.Round, Agent: c.sel.Agent, Resource: name, Arguments: rawArgs(args)}
	t, offered := c.tools[name]
	var result string
	var err error
	start := time.Now()
	switch snap, serr := c.p.app.grantsSnapshot(ctx); {
	case !offered:
		err = fmt.Errorf("%w: %s was not offered to %s", ErrResourceRevoked, name, c.sel.Agent)
	case serr != nil:
		err = serr
		c.fail(serr)
	case !c.p.app.view.CanUse(c.sel.Agent, name, snap.Point()):
		err = fmt.Errorf("%w: %s was revoked from %s", ErrResourceRevoked, name, c.sel.Agent)
	default:
		result, err = t.Call(ctx, args)
		c.mu.Lock()
		c.ranIDs = append(c.ranIDs, name)
		c.mu.Unlock()
	}
	ev.DurationMS = float64(time.Since(start).Microseconds()) / 1000
	ev.ResultBytes = len(result)
	if err != nil {
		ev.Error = err.Error()
	} else {
		sum := sha256.Sum256([]byte(result))
		ev.ResultSHA256 = hex.EncodeToString(sum[:])
		c.mu.Lock()
		c.ok = append(c.ok, name)
		c.mu.Unlock()
	}
	if aerr := c.p.emit(ctx, c.q, c.cause, c.step("call", strconv.Itoa(n)), ev); aerr != nil {
		c.fail(aerr)
		return "", aerr
	}
	return result, err
}

func (c *caller) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.infra == nil {
		c.infra = err
	}
}

// failed is the log failure that broke a call, if any.
func (c *caller) failed() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.infra
}

func (c *caller) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls
}

// ran is every resource that was called: whatever it returned, a result
// or an error message, the agent saw it, so it is part of the response's
// label.
func (c *caller) ran() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return memory.SortedSet(c.ranIDs)
}

// used is the resources called successfully: the resources the response
// reports it used.
func (c *caller) used() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return memory.SortedSet(c.ok)
}

// tool builds (once per registration) the tool of a registered resource.
func (p *Pipeline) tool(id string) (resources.Tool, error) {
	r, ok := p.app.view.Resource(id)
	if !ok {
		return nil, fmt.Errorf("resource %s is not registered", id)
	}
	key := id + "@" + strconv.FormatUint(r.Registered.Revision, 10)
	if t, ok := p.tools.Load(key); ok {
		return t.(resources.Tool), nil
	}
	t, err := resources.Build(r.ID, r.Kind, r.Description, r.Config, p.app.cfg.Resources)
	if err != nil {
		return nil, err
	}
	p.tools.Store(key, t)
	return t, nil
}

func rawArgs(args json.RawMessage) map[string]any {
	m := map[string]any{}
	if err := json.Unmarshal(args, &m); err != nil {
		m = map[string]any{"_raw": string(args)}
	}
	return m
}
