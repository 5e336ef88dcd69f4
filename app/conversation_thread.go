package app

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/projectors/access"
)

// A conversation's thread: a turn that names no scope usually replies to
// the turns just before it ("Medication plan after review: stop
// ibuprofen…", said by a nurse right after the patient spoke). A speaker
// who works in several scopes has no one scope of their own to put it in,
// and the narrower reading — their own record — hides it from everyone
// the thread concerned. So such a turn goes to the thread's scope, but only
// when that is unambiguous: exactly one scope among the last threadSpan
// turns' decisions is one the speaker reads in full (a working scope: not a
// summary, not a steward's or another partial grant); with none or several,
// the narrower reading stands. The speaker already reads that scope in
// full and could have named it; what changes is only that they did not.
//
// Two kinds of turn keep the narrower reading even in a clear thread
// (threadStays): talk of removing something (a deletion confirmed or
// reported restates what is being erased, and the thread's readers are
// the ones it is being erased from), and a turn that limits its own
// audience ("reserved for the assigned clinician"). An inherited turn is
// also not written for the scope's summary or class readers (see
// IngestTurn): it is a guess about a scope, and only the scope's full
// readers, who take part in the thread, get it.
//
// Nor does an inherited turn take another scope's value (conversation_owners.go):
// a turn restating a value first said elsewhere would go to the thread's
// scope and the value's owner at once, and a new value it says (first
// said there) would then have no single owner to protect it when it is
// restated in a third scope. Such a turn is decided as if it had no
// thread (withoutThread).
//
// The thread lives in memory: after a restart the first turns of a thread
// fall back to the narrower reading until it has new decisions. A turn
// says which thread it belongs to (TurnRequest.Thread); turns without one
// share the default thread.

// noThread is a thread no turn belongs to: deciding with it ignores the
// thread.
const noThread = "\x00"

// withoutThread decides text's scope as if it had no thread, with its
// values' owners, and redacts stored for the erasures of that scope.
func (a *App) withoutThread(ctx context.Context, speaker, text, stored string, now access.Point) (ScopeDecision, string, error) {
	d, ok := a.decideScope(speaker, noThread, text, now)
	if !ok {
		return d, stored, fmt.Errorf("%w: %s names no registered scope and has none of its own to write into", domain.ErrForbidden, speaker)
	}
	if red, n := a.redactErased(d.Scopes, stored); n > 0 {
		stored = red
	}
	d, err := a.withValueOwners(ctx, stored, d)
	return d, stored, err
}

// threadSpan is how many of a thread's last turns its scope is read from.
const threadSpan = 6

// maxThreads bounds the threads kept; past it the oldest are forgotten
// (their next turns take the narrower reading).
const maxThreads = 4096

// threads keeps each thread's last decided scopes.
type threads struct {
	mu    sync.Mutex
	last  map[string][][]string
	order []string // threads in first-seen order, for the bound
}

// recent returns a copy of thread's last decisions.
func (t *threads) recent(thread string) [][]string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([][]string(nil), t.last[thread]...)
}

// add records that a turn of thread was written to scopes.
func (t *threads) add(thread string, scopes []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.last == nil {
		t.last = map[string][][]string{}
	}
	if _, ok := t.last[thread]; !ok {
		if len(t.order) >= maxThreads {
			delete(t.last, t.order[0])
			t.order = t.order[1:]
		}
		t.order = append(t.order, thread)
	}
	t.last[thread] = append(t.last[thread], append([]string(nil), scopes...))
	if l := t.last[thread]; len(l) > threadSpan {
		t.last[thread] = l[len(l)-threadSpan:]
	}
}

// threadStays matches a turn that keeps the narrower reading in any thread.
var threadStays = regexp.MustCompile(`(?i)\b(delet\w*|remov\w*|eras(e|ed|es|ing|ure)|clear(ed|s|ing)?|purg\w*|wip(e|ed|es|ing)|scrub\w*|forg[eo]t\w*|retir\w*|revok\w*|withdr[ae]w\w*|reserved for|only for|confidential\w*|do not (share|disclose|release|tell|mention))\b`)

// threadScope is the one scope of the thread's last turns that speaker
// reads in full now, other than their own record; "" when there is none or
// more than one.
func (a *App) threadScope(speaker, thread, text string, now access.Point) string {
	if thread == noThread || threadStays.MatchString(text) {
		return ""
	}
	full := map[string]bool{}
	for _, ag := range a.view.Agents(speaker, now) {
		if id, ok := strings.CutPrefix(ag, scopePrefix); ok {
			if base, own := scopeBase(id); own && base == id && id != recordPrefix+speaker {
				full[id] = true
			}
		}
	}
	found := ""
	for _, scopes := range a.threads.recent(thread) {
		for _, s := range scopes {
			if !full[s] || s == found {
				continue
			}
			if found != "" {
				return "" // two scopes in the thread: ambiguous
			}
			found = s
		}
	}
	return found
}
