package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/projectors/access"
)

// Digest is a fingerprint of one process's projections at a revision: two
// processes that applied the same log prefix answer the same Digest. The
// cluster fault tests compare them across gateways.
type Digest struct {
	Revision  uint64 `json:"revision"`
	Access    string `json:"access"`    // hex SHA-256 of every edge at Revision
	Fragments string `json:"fragments"` // hex SHA-256 of the fragments written up to Revision
	Edges     int    `json:"edges"`
	Fragment  int    `json:"fragment_count"`
}

// fragmentLister is the optional part of a FragmentRegistry the digest
// reads (implemented by *memory.Fragments); without it the fragment hash
// covers nothing.
type fragmentLister interface {
	// Revisions returns every registered fragment id with the revision it
	// was written at.
	Revisions() map[string]uint64
}

// Digest fences on the log head (or waits for revision when it is set and
// newer), waits until every projection of this process — the vector view
// included — has applied it, and hashes the access graph and fragment registry as the log
// defines them at that revision. Admin only: it names every principal.
func (a *App) Digest(ctx context.Context, by domain.Identity, revision uint64) (Digest, error) {
	if err := requireAdmin(by); err != nil {
		return Digest{}, err
	}
	if revision == 0 {
		head, err := a.log.Head(ctx, "")
		if err != nil {
			return Digest{}, fmt.Errorf("%w: read fence: %w", domain.ErrUnavailable, err)
		}
		revision = head
	}
	if err := a.waitFor(ctx, revision); err != nil {
		return Digest{}, err
	}
	// The vector view may have a runner of its own (an external store):
	// a digest at revision says every projection of this process has
	// applied it, so it waits for the view too.
	if err := a.waitOn(ctx, a.viewFresh, revision); err != nil {
		return Digest{}, err
	}
	p := access.AtRevision(revision)
	h := sha256.New()
	d := Digest{Revision: revision}
	edges := func(kind, from string, to []string) {
		for _, t := range to {
			_, _ = fmt.Fprintf(h, "%s\x00%s\x00%s\n", kind, from, t)
			d.Edges++
		}
	}
	for _, u := range sorted(a.view.UserIDs()) {
		edges("ua", u, sorted(a.view.Agents(u, p)))
	}
	for _, ag := range sorted(a.view.AgentIDs()) {
		edges("ar", ag, sorted(a.view.Resources(ag, p)))
	}
	d.Access = hex.EncodeToString(h.Sum(nil))
	h.Reset()
	if l, ok := a.fragments.(fragmentLister); ok {
		var ids []string
		for id, rev := range l.Revisions() {
			if rev <= revision {
				ids = append(ids, fmt.Sprintf("%s\x00%d", id, rev))
			}
		}
		slices.Sort(ids)
		_, _ = h.Write([]byte(strings.Join(ids, "\n")))
		d.Fragment = len(ids)
	}
	d.Fragments = hex.EncodeToString(h.Sum(nil))
	return d, nil
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
