package weaviate

import (
	"cmp"
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
	// spec is the class's filter as persisted (registry.go): tier, user
	// and allowed sets.
	spec vectors.Filter
	// ready is set once every object of the class carries the label when
	// the class admits it (a materialisation pass finished after the
	// class was registered). Guarded by readers.mu.
	ready bool
	// persisted is set once the class is known to be in the persisted
	// registry (read there, or written by this process); leaving is when
	// the holder, which forgot it there, stops labelling with it (zero:
	// not leaving). Both guarded by readers.mu.
	persisted bool
	leaving   time.Time
	used      atomic.Int64 // unix nanoseconds of the last search through it, here or (shared) anywhere
	pushed    int64        // used as last read from or written to the persisted registry; guarded by readers.mu
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
	canon := func(xs []string) string { return strings.Join(canonical(xs), "\x1f") }
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
	// searches counts the searches served through a label, passes the
	// materialisation passes ended.
	searches, passes atomic.Int64
	// beforePass, when set (tests only, under mu), runs before each pass,
	// after its pending classes are persisted, with their labels.
	beforePass func(pending []string)
	// page is the objects per page of a pass: pageSize (tests set fewer).
	page int
	// shared (Config.Shared, or Leased) says the class is written by
	// whichever process holds lease (nil: none of this Store's writes
	// is the holder's): see shared.go. Guarded by mu.
	shared bool
	lease  Lease
	// syncedAt is when the last read of the persisted registry that
	// this registry merged began; guarded by mu. A shared Store trusts
	// its ready flags for readyValid after it.
	syncedAt time.Time
	// strip says an eviction's labels are not stripped yet; guarded by mu.
	strip bool
	// refresh, valid and grace are refreshEvery, readyValid and
	// leaveGrace (tests set shorter ones).
	refresh, valid, grace time.Duration
}

func newReaders(max int, idle time.Duration) *readers {
	return &readers{classes: map[string]*readerClass{}, max: max, idle: idle, wake: make(chan struct{}, 1),
		passed: make(chan struct{}), page: pageSize, refresh: refreshEvery, valid: readyValid, grace: leaveGrace}
}

// labelsFor returns the labels of every registered class admitting f,
// ready or not, leaving or not; the caller holds mu.
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
// object carries the label if the class admits it) and not leaving, and,
// for a shared class, when the registry was read less than valid ago:
// a ready flag older than that may belong to a class the holder has
// stopped labelling with. known reports whether it is registered at all.
// The caller holds mu for reading.
func (r *readers) lookup(label string) (c *readerClass, known bool) {
	c = r.classes[label]
	if c == nil {
		return nil, false
	}
	now := time.Now()
	c.used.Store(now.UnixNano())
	if !c.ready || !c.leaving.IsZero() || (r.shared && now.Sub(r.syncedAt) >= r.valid) {
		return nil, true
	}
	return c, true
}

// register adds f's class if it is new and wakes the materialiser, which
// persists it and evicts the least recently used classes beyond max.
func (r *readers) register(label string, f vectors.Filter) {
	r.mu.Lock()
	if _, ok := r.classes[label]; !ok {
		r.addLocked(newReaderClass(label, f), false)
	}
	r.mu.Unlock()
	r.signal()
}

// newReaderClass is the class of f, labelled label.
func newReaderClass(label string, f vectors.Filter) *readerClass {
	spec := vectors.Filter{Tier: f.Tier, AllowedAgents: canonical(f.AllowedAgents), AllowedResources: canonical(f.AllowedResources)}
	if f.Tier == "private" {
		spec.User = f.User
	}
	return &readerClass{label: label, tier: spec.Tier, user: spec.User, allow: newAllowed(spec), spec: spec}
}

// addLocked registers c, ready or not, as used now; the caller holds mu.
func (r *readers) addLocked(c *readerClass, ready bool) {
	c.ready = ready
	c.used.Store(time.Now().UnixNano())
	r.classes[c.label] = c
}

// canonical is xs sorted without repetition.
func canonical(xs []string) []string {
	return slices.Compact(slices.Sorted(slices.Values(xs)))
}

// victimsLocked are the classes idle for longer than r.idle, then the
// least recently used ones beyond r.max; the caller holds mu. The
// materialiser forgets them in the persisted registry, then here, and
// the next pass strips their labels.
func (r *readers) victimsLocked(now time.Time) []*readerClass {
	var out []*readerClass
	var live []*readerClass
	for _, c := range r.classes {
		if !c.leaving.IsZero() {
			continue
		}
		if now.Sub(time.Unix(0, c.used.Load())) > r.idle {
			out = append(out, c)
		} else {
			live = append(live, c)
		}
	}
	if len(live) > r.max {
		slices.SortFunc(live, func(a, b *readerClass) int { return cmp.Compare(a.used.Load(), b.used.Load()) })
		out = append(out, live[:len(live)-r.max]...)
	}
	return out
}

func (r *readers) signal() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}
