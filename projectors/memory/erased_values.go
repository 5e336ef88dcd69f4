package memory

import (
	"maps"

	"github.com/cmem/cmem/events"
)

// Erased values: the registry keeps, per scope, the hashes of the values
// erased from it in conversation (events.ValuesErased), so a restart or a
// rebuild from the log restores them with the rest of the registry. Only
// hashes: the values left the log with their fragments.

// applyErased records e's hashes; the caller holds fs.mu.
func (fs *Fragments) applyErased(e *events.ValuesErased) {
	if fs.erased == nil {
		fs.erased = map[string]map[string]int{}
	}
	set := fs.erased[e.Scope]
	if set == nil {
		set = map[string]int{}
		fs.erased[e.Scope] = set
	}
	for _, v := range e.Values {
		set[v.SHA256] = v.Words
	}
}

// ErasedValues returns the hashes (hex SHA-256 of the normalised value →
// its length in words) of the values erased from scope.
func (fs *Fragments) ErasedValues(scope string) map[string]int {
	fs.mu.RLock()
	defer fs.mu.RUnlock()
	return maps.Clone(fs.erased[scope])
}

// erasedCopy is every scope's set, copied for a snapshot; the caller holds
// fs.mu.
func (fs *Fragments) erasedCopy() map[string]map[string]int {
	out := make(map[string]map[string]int, len(fs.erased))
	for s, set := range fs.erased {
		out[s] = maps.Clone(set)
	}
	return out
}
