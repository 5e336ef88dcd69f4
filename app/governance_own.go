package app

import (
	"context"
	"fmt"

	"github.com/cmem/cmem/domain"
)

// eraseOwn erases, of ids, the fragments by said themselves (their own
// turns, and with them what was derived from them): a speaker without
// authority over a scope who asks to delete something they said there
// takes their own words back, as DeleteFragment lets any author do, and
// erases nothing anyone else said. done records what is erased.
func (a *App) eraseOwn(ctx context.Context, by domain.Identity, ids []string, done map[string]bool) (GovernanceAct, error) {
	act := GovernanceAct{Kind: "erase", Targets: []string{}}
	for _, id := range ids {
		info, ok := a.fragments.Get(id)
		if !ok || done[id] || info.User != by.ID || len(info.DerivedFrom) > 0 {
			continue // another's words, or a copy that goes with its original
		}
		rev, err := a.DeleteFragment(ctx, by, id)
		if err != nil && !isNotFound(err) {
			return act, err
		}
		done[id] = true
		act.Applied = true
		act.Targets = append(act.Targets, id)
		act.Revision = max(act.Revision, rev)
	}
	act.Reason = fmt.Sprintf("erased %d fragment(s) %s said themselves (no authority over the scope: nothing else erased)", len(act.Targets), by.ID)
	return act, nil
}
