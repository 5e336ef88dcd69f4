package app

import (
	"context"
	"log/slog"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/memory"
	"github.com/cmem/cmem/vectors"
)

// The neighbours the store did not return. The answer to a question is
// often the turn after the one that shares its words ("Why did you start
// running?" — "To de-stress"), and it shares too few of them to be among
// the hits the store ranks, so the neighbour term of the second stage
// (rescore_context.go) cannot reach it. The view therefore also reads,
// through the fragment registry, what was observed within
// NeighbourWindow of its best NearSeeds hits after the second stage, and
// ranks each just below the hit it is next to: NearWeight × that hit's
// score (plus NearOwnWeight × its own first score and soft match).
// Measured on LoCoMo's conversations 0–4 only (see docs/memory.md).
//
// This is a read path of its own: the registry lists every fragment
// observed then, whoever wrote it, so each one is checked like a hit of
// the store (tier, owner of a private fragment, M(u,a,t) on its
// provenance) before its content is read, and again on the store's copy
// before it is ranked or shown (TestNeighboursIgnoreWhatTheReaderCannotSee).
// A neighbour is ranked from its seed's score, never the other way: the
// hits the store returned keep their scores.
var (
	NearSeeds     = 1
	NearWeight    = 0.9
	NearOwnWeight = 0.0
	NearAfterOnly = false
)

// nearHit is a neighbour the store did not return and the seed hit it is
// observed next to (the best one, when several are).
type nearHit struct {
	vectors.Hit
	seed string
}

// nearby returns, as hits, the fragments the reader may see that were
// observed within NeighbourWindow of seeds and are not in byID already.
// Each hit's Score is its hybrid score with no lexical side (it was not
// among the lexical candidates) and Cosine its cosine to the query.
func (a *App) nearby(ctx context.Context, user, agent string, f vectors.Filter, q vectors.Query, now access.Point,
	seeds []memory.Surfaced, byID map[string]vectors.Hit) []nearHit {
	var ids []string
	seedOf := map[string]string{}
	for _, s := range seeds {
		seed, _ := a.fragments.Get(s.ID)
		for _, info := range a.fragments.ObservedNear(s.ID, NeighbourWindow) {
			if NearAfterOnly && !info.ObservedAt.After(seed.ObservedAt) {
				continue
			}
			if _, in := byID[info.ID]; in || seedOf[info.ID] != "" || !a.mayRead(user, agent, f, info.Tier, info.User, info.Agents, info.Resources, now) {
				continue
			}
			seedOf[info.ID] = s.ID
			ids = append(ids, info.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	frs, err := a.store.Get(ctx, ids)
	if err != nil { // context only: the view stands without it
		slog.Warn("memory view: reading the neighbours of its hits failed", "err", err)
		return nil
	}
	out := make([]nearHit, 0, len(frs))
	for _, fr := range frs {
		if seedOf[fr.ID] == "" || !a.mayRead(user, agent, f, fr.Tier, fr.User, fr.Agents, fr.Resources, now) {
			continue // the store's copy is what would be shown: it is checked too
		}
		cos := float64(embedding.Cosine(q.Vector, fr.Vector))
		h := vectors.Hit{Fragment: fr, Cosine: float32(cos)}
		h.Score = float32(vectors.HybridScore(cos, 0, vectors.ValueTokens(fr.Value)))
		out = append(out, nearHit{Hit: h, seed: seedOf[fr.ID]})
	}
	return out
}

// mayRead says whether a fragment of tier, written by owner with this
// provenance, may be read by user through agent at now in a view of f's
// tier.
func (a *App) mayRead(user, agent string, f vectors.Filter, tier, owner string, agents, resources []string, now access.Point) bool {
	if tier != f.Tier || tier == events.TierPrivate && owner != user {
		return false
	}
	return a.view.Admissible(user, agent, access.Provenance{Agents: agents, Resources: resources}, now)
}
