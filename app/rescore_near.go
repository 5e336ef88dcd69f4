package app

import (
	"context"
	"log/slog"
	"strings"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/memory"
	"github.com/cmem/cmem/vectors"
)

// The turns after the best hits that ask. The answer to a question is often the turn after the one that shares its
// words ("Why did you start running?" — "To de-stress"), and it shares too
// few of them to be among the hits the store ranks, or to rank high among
// them, so the neighbour term of the second stage (rescore_context.go)
// cannot lift it. The view
// therefore also reads, through the fragment registry, the first NearMax
// fragments observed after each of its best NearSeeds hits that asks
// something (after the second stage; asking), within NeighbourWindow, and ranks each at NearWeight ×
// the score of the hit it follows, just below it (a hit the store
// returned keeps its own score when that is higher). Measured on LoCoMo's
// conversations 0–4 only (docs/memory.md): turns after the hit beat turns
// on both sides (fewer hits pushed out of the top k for the same evidence
// found), one to three seeds and weights 0.85–0.95 were within ±0.005.
//
// This is a read path of its own: the registry lists every fragment
// observed then, whoever wrote it, so each one is checked like a hit of
// the store (tier, owner of a private fragment, M(u,a,t) on its
// provenance) before it counts towards NearMax or its content is read,
// and again on the store's copy before it is ranked or shown
// (TestNeighboursIgnoreWhatTheReaderCannotSee). A neighbour is ranked from
// its seed's score, never the other way.
const (
	NearSeeds  = 2
	NearWeight = 0.9
	NearMax    = 4
)

// asking is the seeds that ask something (hold a question mark): only
// the turn after a question is its reply. A statement's next turn is
// another statement, and lifting it pushed the answer out of governed
// answers (GateMem office U 41.6 → 39.0 with every best hit a seed)
// while LoCoMo's conversations 0–4 lost little (recall@10 0.734 → 0.724).
func asking(seeds []memory.Surfaced) []memory.Surfaced {
	out := seeds[:0:0]
	for _, s := range seeds {
		if strings.Contains(s.Value, "?") {
			out = append(out, s)
		}
	}
	return out
}

// nearHit is a neighbour the store did not return and the seed hit it is
// observed next to (the best one, when several are).
type nearHit struct {
	vectors.Hit
	seed string
}

// nearby returns, as hits, the first NearMax fragments the reader may see
// observed after each of seeds, within NeighbourWindow: those in byID as
// they are, the others read from the store.
// Each hit's Cosine is its cosine to the query; its Score is the caller's.
func (a *App) nearby(ctx context.Context, user, agent string, f vectors.Filter, q vectors.Query, now access.Point,
	seeds []memory.Surfaced, byID map[string]vectors.Hit) []nearHit {
	var ids []string
	var out []nearHit
	seedOf := map[string]string{}
	for _, s := range seeds {
		seed, _ := a.fragments.Get(s.ID)
		taken := 0
		for _, info := range a.fragments.ObservedNear(s.ID, NeighbourWindow) {
			if !info.ObservedAt.After(seed.ObservedAt) || taken == NearMax {
				continue
			}
			if seedOf[info.ID] != "" {
				continue
			}
			if h, in := byID[info.ID]; in { // returned by the store and re-checked already
				seedOf[info.ID] = s.ID
				out = append(out, nearHit{Hit: h, seed: s.ID})
				taken++
				continue
			}
			if !a.mayRead(user, agent, f, info.Tier, info.User, info.Agents, info.Resources, now) {
				continue
			}
			seedOf[info.ID] = s.ID
			ids = append(ids, info.ID)
			taken++
		}
	}
	if len(ids) == 0 {
		return out
	}
	frs, err := a.store.Get(ctx, ids)
	if err != nil { // context only: the view stands without it
		slog.Warn("memory view: reading the neighbours of its hits failed", "err", err)
		return out
	}
	for _, fr := range frs {
		if seedOf[fr.ID] == "" || !a.mayRead(user, agent, f, fr.Tier, fr.User, fr.Agents, fr.Resources, now) {
			continue // the store's copy is what would be shown: it is checked too
		}
		h := vectors.Hit{Fragment: fr, Cosine: embedding.Cosine(q.Vector, fr.Vector)}
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
