package e2e_test

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/cmem/cmem/domain"
)

// grant grants a user-agent (ua) or agent-resource edge, a third of them
// ending within seconds.
func (s *soak) grant(ua bool) {
	from, to, m, path := s.pickEdge(ua)
	var body any
	exp := time.Time{}
	if s.rng.IntN(3) == 0 {
		exp = time.Now().Add(time.Duration(500+s.rng.IntN(4000)) * time.Millisecond).UTC()
		body = map[string]string{"expires_at": exp.Format(time.RFC3339Nano)}
	}
	var r struct{ Revision uint64 }
	s.must(s.do(s.admin, http.MethodPut, path+from+"/"+to, body, &r))
	m[[2]string{from, to}] = exp
	s.note("grant", r.Revision)
}

func (s *soak) revoke(ua bool) {
	from, to, m, path := s.pickEdge(ua)
	var r struct{ Revision uint64 }
	s.must(s.do(s.admin, http.MethodDelete, path+from+"/"+to, nil, &r))
	delete(m, [2]string{from, to})
	s.note("revoke", r.Revision)
}

func (s *soak) pickEdge(ua bool) (string, string, map[[2]string]time.Time, string) {
	if ua {
		return pick(s.rng, s.users), pick(s.rng, s.agents), s.m.ua, "/v1/grants/user-agent/"
	}
	return pick(s.rng, s.agents), pick(s.rng, s.resources), s.m.ar, "/v1/grants/agent-resource/"
}

// write writes a fragment through an agent the user may use, with
// resources the agent may use, neither ending within the next seconds.
func (s *soak) write(i int) {
	user := pick(s.rng, s.users)
	now, soon := time.Now(), time.Now().Add(3*time.Second)
	agents := s.m.agentsOf(user, s.agents, now, soon)
	if len(agents) == 0 {
		s.counts["write-skipped"]++
		return
	}
	agent := pick(s.rng, agents)
	var res []string
	for _, r := range s.m.resourcesOf(agent, s.resources, now, soon) {
		if s.rng.IntN(2) == 0 {
			res = append(res, r)
		}
	}
	tier := "shared"
	if s.rng.IntN(3) == 0 {
		tier = "private"
	}
	key := fmt.Sprintf("k%d %s %s", i, pick(s.rng, soakWords), pick(s.rng, soakWords))
	var r struct {
		Fragments []domain.Fragment
		Revision  uint64
	}
	s.must(s.do(s.tokens[user], http.MethodPost, "/v1/fragments",
		map[string]any{"agent": agent, "resources": res, "key": key, "value": "value of " + key, "tier": tier}, &r))
	for _, f := range r.Fragments {
		s.m.write(soakFragment{ID: f.ID, User: user, Key: f.Key, Tier: f.Tier, Agents: f.Agents, Resources: f.Resources})
	}
	s.note("write", r.Revision)
}

// erase deletes one of a user's live fragments, as that user.
func (s *soak) erase() {
	user := pick(s.rng, s.users)
	ids := s.m.byUser[user]
	if len(ids) == 0 {
		s.counts["erase-skipped"]++
		return
	}
	id := pick(s.rng, ids)
	var r struct{ Revision uint64 }
	// (a retry after a 503 may find it erased by the refused attempt.)
	if status, err := s.do(s.tokens[user], http.MethodDelete, "/v1/fragments/"+id, nil, &r); err != nil && (!s.retried || !errors.Is(err, domain.ErrNotFound)) {
		s.must(status, err)
	}
	s.m.erase(id)
	s.erased[id] = true
	s.note("erase", r.Revision)
}

// view reads a memory view asking for one live fragment the model says the
// reader may see (by its key, which ranks it first), or anything, and
// checks every fragment returned.
func (s *soak) view() {
	user := pick(s.rng, s.users)
	t0 := time.Now()
	agents := s.m.agentsOf(user, s.agents, t0, t0.Add(3*time.Second))
	if len(agents) == 0 {
		s.counts["view-skipped"]++
		return
	}
	agent := pick(s.rng, agents)
	var target *soakFragment
	if ids := s.m.byUser[pick(s.rng, s.users)]; len(ids) > 0 {
		if f := s.m.fragments[pick(s.rng, ids)]; s.m.admissible(f, user, agent, t0) && s.m.admissible(f, user, agent, t0.Add(3*time.Second)) {
			target = &f
		}
	}
	query := pick(s.rng, soakWords)
	if target != nil {
		query = target.Key
	}
	var r struct {
		Private, Shared []domain.Fragment
	}
	body := map[string]any{"agent": agent, "query": query, "k_user": 20, "k_cross": 20, "min_revision": s.rev, "min_score": -1}
	status, err := s.do(s.tokens[user], http.MethodPost, "/v1/memory/view", body, &r)
	t1 := time.Now()
	if err != nil {
		s.t.Fatalf("memory view %s/%s: %d %v", user, agent, status, err)
	}
	s.views++
	seen := map[string]bool{}
	for _, f := range slices.Concat(r.Private, r.Shared) {
		if seen[f.ID] {
			s.double++
			s.t.Errorf("doubled: %s twice in the view of %s/%s", f.ID, user, agent)
		}
		seen[f.ID] = true
		s.checkReturned(f, user, agent, t0, t1)
	}
	if target != nil && s.m.admissible(*target, user, agent, t1) {
		s.checked++
		if !seen[target.ID] {
			s.lost++
			s.t.Errorf("lost: %s (%s, %v/%v) not in the view of %s/%s asked by its key", target.ID, target.Tier, target.Agents, target.Resources, user, agent)
		}
	}
}

// checkReturned counts f as unauthorized when no moment of the call
// admits it: the model's provenance for fragments it wrote, the answer's
// for those the pipeline wrote.
func (s *soak) checkReturned(f domain.Fragment, user, agent string, t0, t1 time.Time) {
	if s.erased[f.ID] {
		s.unauthorized++
		s.t.Errorf("unauthorized: erased fragment %s returned to %s/%s", f.ID, user, agent)
		return
	}
	mf, ok := s.m.fragments[f.ID]
	if !ok {
		mf = soakFragment{ID: f.ID, User: f.User, Tier: f.Tier, Agents: f.Agents, Resources: f.Resources}
	}
	if !s.m.admissible(mf, user, agent, t0) && !s.m.admissible(mf, user, agent, t1) {
		if s.ambiguous(mf, user, agent, t0, t1) {
			s.skipped++
			return
		}
		s.unauthorized++
		s.t.Errorf("unauthorized: %s (%s of %s, %v/%v) returned to %s/%s", f.ID, mf.Tier, mf.User, mf.Agents, mf.Resources, user, agent)
	}
}

// ambiguous reports whether an edge f needs ended inside [t0, t1].
func (s *soak) ambiguous(f soakFragment, user, agent string, t0, t1 time.Time) bool {
	ends := func(m map[[2]string]time.Time, k [2]string) bool {
		exp, ok := m[k]
		return ok && !exp.IsZero() && !exp.Before(t0.Add(-50*time.Millisecond)) && !exp.After(t1.Add(50*time.Millisecond))
	}
	for _, a := range f.Agents {
		if ends(s.m.ua, [2]string{user, a}) {
			return true
		}
	}
	for _, r := range f.Resources {
		if ends(s.m.ar, [2]string{agent, r}) {
			return true
		}
	}
	return false
}

// query submits a query without waiting; finish waits for every one.
func (s *soak) query(i int) {
	user := pick(s.rng, s.users)
	var r struct{ ID string }
	s.must(s.do(s.tokens[user], http.MethodPost, "/v1/queries",
		map[string]any{"text": fmt.Sprintf("what about %s and %s (%d)?", pick(s.rng, soakWords), pick(s.rng, soakWords), i), "wait": false}, &r))
	s.queries = append(s.queries, soakQuery{id: r.ID, user: user})
	s.counts["query"]++
}
