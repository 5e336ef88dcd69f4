package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/memory"
)

// TurnRequest is one utterance of a conversation, said by the caller.
type TurnRequest struct {
	Text string `json:"text"`
	// Thread names the conversation the turn belongs to (a chat's id);
	// turns without one share the default thread. A turn that names no
	// scope may take its thread's scope (conversation_thread.go).
	Thread string `json:"thread,omitempty"`
}

// TurnAnswer is what cmem made of a turn: where it was written and why,
// and the governance it carried.
type TurnAnswer struct {
	Fragments  []domain.Fragment `json:"fragments"`
	Decision   ScopeDecision     `json:"decision"`
	Governance []GovernanceAct   `json:"governance"`
	Revision   uint64            `json:"revision"`
}

// IngestTurn writes one utterance of the caller into the scope(s) it
// concerns (decideScope), with the scopes' agents as its provenance, so
// the access graph decides who reads it. Saying something about a scope
// needs no read access to it — the speaker only adds what they said —
// and the speaker reads it back only through the grants they hold.
// Governance the turn speaks (deletion, delegation, revocation) is applied
// first, and only with the speaker's authority (see governance.go).
func (a *App) IngestTurn(ctx context.Context, by domain.Identity, req TurnRequest) (TurnAnswer, error) {
	text := strings.TrimSpace(req.Text)
	if by.ID == AdminID {
		return TurnAnswer{}, fmt.Errorf("%w: the bootstrap admin is not a user and says nothing; speak as a registered user", domain.ErrForbidden)
	}
	if text == "" {
		return TurnAnswer{}, fmt.Errorf("%w: text must not be empty", domain.ErrInvalid)
	}
	if len(req.Thread) > 256 {
		return TurnAnswer{}, fmt.Errorf("%w: thread is limited to 256 bytes", domain.ErrInvalid)
	}
	if len(text) > 262144 {
		return TurnAnswer{}, fmt.Errorf("%w: text is limited to 256 KiB", domain.ErrInvalid)
	}
	if statements(text) == "" {
		// A question or a request states nothing to remember: keeping it
		// would only put the asker's own words before the model later.
		return TurnAnswer{Fragments: []domain.Fragment{}, Governance: []GovernanceAct{},
			Decision: ScopeDecision{Scopes: []string{}, Reason: "a question or request: nothing to remember", Sensitivity: Sensitivity(text)}}, nil
	}
	snap, err := a.Snapshot(ctx, 0)
	if err != nil {
		return TurnAnswer{}, err
	}
	now := snap.Point()
	d, ok := a.decideScope(by.ID, req.Thread, text, now)
	if !ok {
		return TurnAnswer{}, fmt.Errorf("%w: %s names no registered scope and has none of its own to write into", domain.ErrForbidden, by.ID)
	}
	a.threads.add(req.Thread, d.Scopes)
	ans := TurnAnswer{Decision: d, Governance: []GovernanceAct{}}
	acts, stored, err := a.governTurn(ctx, by, text, d, now)
	if err != nil {
		return ans, err
	}
	ans.Governance = acts
	if stored = statements(stored); stored == "" { // only what the turn states is remembered
		ans.Fragments = []domain.Fragment{}
		return ans, nil
	}
	for _, g := range acts {
		ans.Revision = max(ans.Revision, g.Revision)
	}
	if d, err = a.withValueOwners(ctx, stored, d); err != nil { // a value belongs where it was first said (conversation_owners.go)
		return ans, err
	}
	if d.inherited && len(d.Scopes) > 1 { // a scope guessed from the thread takes no other scope's value (conversation_thread.go)
		if d, stored, err = a.withoutThread(ctx, by.ID, text, stored, now); err != nil {
			return ans, err
		}
	}
	open := d                      // summaries and class reads are of the record: they drop or keep the vault's classes themselves
	d, vault := vaulted(stored, d) // a credential said in a personal record (conversation_vault.go)
	if err := a.ensureVault(ctx, by, d); err != nil {
		return ans, err
	}
	ans.Decision = d
	agents := make([]string, len(d.Scopes))
	for i, s := range d.Scopes {
		agents[i] = ScopeAgent(s)
	}
	req2 := WriteRequest{Agent: agents[0], Resources: []string{}, Key: key(stored), Value: stored, Tier: events.TierShared,
		Notes: []string{"scope: " + strings.Join(d.Scopes, ",") + " (" + d.Reason + ")", "sensitivity: " + strings.Join(d.Sensitivity, ",")}}
	w, err := a.writeWith(ctx, by, req2, memory.Provenance{Agents: events.SortedSet(agents), Resources: []string{}}, events.ProvenanceTransitive)
	if err != nil {
		return ans, err
	}
	var sum, cls, wh uint64
	if !open.inherited && !open.nested { // a scope taken from the thread or the narrowest of the speaker's is for its full readers only (conversation_thread.go, conversation_nested.go)
		if sum, err = a.writeSummaries(ctx, by, w.Fragments, open); err != nil { // what summary readers read (summary_write.go)
			return ans, err
		}
		if cls, err = a.writeClassReads(ctx, by, w.Fragments, open); err != nil { // what class readers read (class_read.go)
			return ans, err
		}
		if wh, err = a.writeWithheldReads(ctx, by, w.Fragments, d); err != nil { // what need-to-know readers read (withhold_read.go)
			return ans, err
		}
	}
	var rec uint64
	if len(vault) > 0 {
		if rec, err = a.writeOutsideVault(ctx, by, w.Fragments, open, vault); err != nil {
			return ans, err
		}
	}
	ans.Fragments, ans.Revision = w.Fragments, max(ans.Revision, w.Revision, sum, cls, wh, rec)
	for i, f := range ans.Fragments { // a new value for something said before (supersede_turn.go)
		old, rev := a.supersedeTurn(ctx, by, f, w.Revision, now)
		if old != "" && f.Supersedes == "" {
			ans.Fragments[i].Supersedes = old
		}
		ans.Revision = max(ans.Revision, rev) // a read at the turn's revision sees what it replaced go

	}
	return ans, nil
}

// key is what a turn is found by: its text, within the key limit.
func key(text string) string {
	const limit = 4096
	if len(text) <= limit {
		return text
	}
	cut := limit
	for cut > 0 && (text[cut]&0xC0) == 0x80 {
		cut--
	}
	return text[:cut]
}
