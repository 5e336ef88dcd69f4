package gateway

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
)

// fragmentBody is POST /v1/fragments (and a batch's write_fragment).
type fragmentBody struct {
	Agent       string   `json:"agent"`
	Resources   []string `json:"resources"`
	Key         string   `json:"key"`
	Value       string   `json:"value"`
	Tier        string   `json:"tier"`
	DerivedFrom []string `json:"derived_from"`
	// ObservedAt is RFC 3339 or YYYY-MM-DD; empty means the write time.
	ObservedAt string `json:"observed_at"`
}

func (b fragmentBody) request() (app.WriteRequest, error) {
	at, err := parseObservedAt(b.ObservedAt)
	return app.WriteRequest{Agent: b.Agent, Resources: b.Resources, Key: b.Key, Value: b.Value, Tier: b.Tier,
		DerivedFrom: b.DerivedFrom, ObservedAt: at}, err
}

func (s *Server) writeFragment(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	var req fragmentBody
	if err := decode(r, &req, true); err != nil {
		s.fail(w, r, err)
		return
	}
	wr, err := req.request()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	ans, err := s.app.WriteFragment(r.Context(), by, wr)
	s.answer(w, r, http.StatusCreated, ans, err)
}

// defaultK is the paper's tier size (App. C.2: k_user = k_cross = 10).
const defaultK = 10

func (s *Server) memoryView(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	var req struct {
		Agent       string `json:"agent"`
		Query       string `json:"query"`
		KUser       *int   `json:"k_user"`
		KCross      *int   `json:"k_cross"`
		MinRevision uint64 `json:"min_revision"`
		// MinScore is the relevance floor; absent = the embedder's default.
		MinScore *float32 `json:"min_score"`
		// AsOf asks for the facts valid then (parseAsOf); absent = now.
		AsOf string `json:"as_of"`
	}
	if err := decode(r, &req, true); err != nil {
		s.fail(w, r, err)
		return
	}
	asOf, err := parseAsOf(req.AsOf)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	k := func(p *int) int {
		if p == nil {
			return defaultK
		}
		return *p
	}
	ans, err := s.app.MemoryView(r.Context(), by, app.ViewRequest{
		Agent: req.Agent, Query: req.Query, KUser: k(req.KUser), KCross: k(req.KCross), MinRevision: req.MinRevision,
		MinScore: req.MinScore, AsOf: asOf,
	})
	s.answer(w, r, http.StatusOK, ans, err)
}

func (s *Server) memoryGraph(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	var req struct {
		Agent       string `json:"agent"`
		Query       string `json:"query"`
		MinRevision uint64 `json:"min_revision"`
	}
	if err := decode(r, &req, true); err != nil {
		s.fail(w, r, err)
		return
	}
	ans, err := s.app.GraphMemory(r.Context(), by, app.GraphRequest{Agent: req.Agent, Query: req.Query, MinRevision: req.MinRevision})
	s.answer(w, r, http.StatusOK, ans, err)
}

func (s *Server) setPolicy(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	var req struct {
		Target      string             `json:"target"`
		Scope       events.PolicyScope `json:"scope"`
		Kind        string             `json:"kind"`
		Config      json.RawMessage    `json:"config"`
		EffectiveAt string             `json:"effective_at"`
	}
	if err := decode(r, &req, true); err != nil {
		s.fail(w, r, err)
		return
	}
	var at time.Time
	if req.EffectiveAt != "" {
		var err error
		if at, err = parseTime("effective_at", req.EffectiveAt); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	if len(req.Config) > 0 && req.Config[0] != '{' && string(req.Config) != "null" {
		s.fail(w, r, fmt.Errorf("%w: config must be a JSON object", domain.ErrInvalid))
		return
	}
	if string(req.Config) == "null" {
		req.Config = nil
	}
	rev, err := s.app.SetPolicy(r.Context(), by, app.PolicyRequest{
		Target: req.Target, Scope: req.Scope, Kind: req.Kind, Config: req.Config, EffectiveAt: at,
	})
	s.answer(w, r, http.StatusCreated, revisionAnswer{Revision: rev}, err)
}

func (s *Server) listPolicies(w http.ResponseWriter, r *http.Request, by domain.Identity) {
	list, err := s.app.ListPolicies(r.Context(), by)
	s.answer(w, r, http.StatusOK, map[string]any{"policies": list}, err)
}
