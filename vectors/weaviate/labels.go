package weaviate

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cmem/cmem/vectors"
)

// readerClass is one reader class: a tier, a user (private tier only) and
// the allowed sets of a filter. Its label is a hash of exactly these, so a
// grant or a revoke changes the label instead of making an old one wrong:
// a label on an object can be missing (not yet materialised) but never
// claims more than the object's current provenance allows.
type readerClass struct {
	label string
	tier  string
	user  string
	allow allowed
	// ready is set once every object of the class carries the label when
	// the class admits it (a materialisation pass finished after the
	// class was registered). Guarded by readers.mu.
	ready bool
	used  atomic.Int64 // unix nanoseconds of the last search through it
}

// admits is vectorstest.Matches for this class: the tier, the user for the
// private tier, and the subset test of the provenance.
func (c *readerClass) admits(f *vectors.Fragment) bool {
	if f.Tier != c.tier || (f.Tier == "private" && f.User != c.user) {
		return false
	}
	return c.allow.admits(f)
}

// readerLabel is the content address of f's reader class. The shared tier
// ignores the user, so readers with the same allowed sets share a class.
func readerLabel(f vectors.Filter) string {
	user := ""
	if f.Tier == "private" {
		user = f.User
	}
	canon := func(xs []string) string {
		return strings.Join(slices.Compact(slices.Sorted(slices.Values(xs))), "\x1f")
	}
	sum := sha256.Sum256([]byte(strings.Join([]string{f.Tier, user, canon(f.AllowedAgents), canon(f.AllowedResources)}, "\x00")))
	return "r" + hex.EncodeToString(sum[:16])
}

// readers is the store's registry of reader classes. Upserts and deletes
// hold mu for reading while they compute labels and write; a
// materialisation page holds it for writing, so that no object changes
// between the page's read and its PATCH.
type readers struct {
	mu      sync.RWMutex
	classes map[string]*readerClass
	max     int
	idle    time.Duration
	wake    chan struct{}
	stop    func()
	done    chan struct{}
	// passed is closed (and replaced) at the end of each pass; guarded
	// by mu. Tests wait on it instead of polling.
	passed chan struct{}
	// searches counts the searches served through a label.
	searches atomic.Int64
	// beforePass, when set (tests only, under mu), runs before each pass.
	beforePass func()
}

func newReaders(max int, idle time.Duration) *readers {
	return &readers{classes: map[string]*readerClass{}, max: max, idle: idle, wake: make(chan struct{}, 1),
		passed: make(chan struct{})}
}

// labelsFor returns the labels of every registered class admitting f,
// ready or not; the caller holds mu.
func (r *readers) labelsFor(f *vectors.Fragment) []string {
	out := []string{}
	for _, c := range r.classes {
		if c.admits(f) {
			out = append(out, c.label)
		}
	}
	slices.Sort(out)
	return out
}

// lookup returns the class of label, marked used, when it is ready (every
// object carries the label if the class admits it); known reports whether
// it is registered at all. The caller holds mu for reading.
func (r *readers) lookup(label string) (c *readerClass, known bool) {
	c = r.classes[label]
	if c == nil {
		return nil, false
	}
	c.used.Store(time.Now().UnixNano())
	if !c.ready {
		return nil, true
	}
	return c, true
}

// register adds f's class if it is new, evicting the least recently used
// classes beyond max, and wakes the materialiser.
func (r *readers) register(label string, f vectors.Filter) {
	r.mu.Lock()
	if _, ok := r.classes[label]; !ok {
		user := ""
		if f.Tier == "private" {
			user = f.User
		}
		c := &readerClass{label: label, tier: f.Tier, user: user, allow: newAllowed(f)}
		c.used.Store(time.Now().UnixNano())
		r.classes[label] = c
		r.evictLocked(time.Now())
	}
	r.mu.Unlock()
	r.signal()
}

// evictLocked drops classes idle for longer than r.idle, then the least
// recently used ones beyond r.max. The next pass strips their labels.
func (r *readers) evictLocked(now time.Time) int {
	n := 0
	for label, c := range r.classes {
		if now.Sub(time.Unix(0, c.used.Load())) > r.idle {
			delete(r.classes, label)
			n++
		}
	}
	for len(r.classes) > r.max {
		var oldest *readerClass
		for _, c := range r.classes {
			if oldest == nil || c.used.Load() < oldest.used.Load() {
				oldest = c
			}
		}
		delete(r.classes, oldest.label)
		n++
	}
	return n
}

func (r *readers) signal() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}
