package rerank

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"slices"
	"sync"

	"github.com/cmem/cmem/embedding"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
	"github.com/cmem/cmem/projectors/memory"
)

// entry is a fragment of the shared pool as learning sees it.
type entry struct {
	id     string
	user   string // whose fragment: its content is sealed under the user's fragment key in a snapshot
	rev    uint64
	prov   access.Provenance
	terms  map[string]int // content words of key and value, with counts
	length int
	model  string // the model of vec; "" without a vector
	vec    []float32
}

// lesson is what one admitted fragment m = (X, Y) taught: δ(c, m) for the
// candidates it labelled.
type lesson struct {
	entry           // m itself: its provenance, key vector and revision
	query  []string // content words of X and Y, unique and sorted (BM25's query)
	answer []string // content words of Y, unique and sorted (Eq. 2's proxy)
	deltas []Contribution
}

// Contribution is δ(c, m): what admitted fragment m taught about candidate
// c, a term added to c's logit for queries like m's key.
type Contribution struct {
	Candidate string
	Delta     float64
}

// Model is the learned retriever: the projection of the log that holds
// the shared pool and every lesson, and the re-ranker built on them. It is
// safe for concurrent use: one writer (the runner), any number of readers.
type Model struct {
	cfg      Config
	mu       sync.RWMutex
	revision uint64
	pool     map[string]*entry
	lessons  map[string]*lesson
	// taught indexes lessons by candidate: taught[c][m] when δ(c, m) ≠ 0.
	taught map[string]map[string]bool
	// postings lists the pool's fragments holding each word, in log order.
	postings map[string][]posting
}

// posting is a pool fragment holding a word tf times.
type posting struct {
	e  *entry
	tf int
}

// New returns an empty model; cfg's zero fields take their defaults.
func New(cfg Config) (*Model, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Model{cfg: cfg, pool: map[string]*entry{}, lessons: map[string]*lesson{}, taught: map[string]map[string]bool{},
		postings: map[string][]posting{}}, nil
}

// Name implements projectors.Projection.
func (*Model) Name() string { return "rerank" }

// Apply implements projectors.Projection: a shared fragment joins the
// pool, and one admitted by an admission gate first learns from the pool
// as it was before it; an erasure removes fragments and relearns the
// lessons whose pool held them.
func (m *Model) Apply(r events.Record) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r.Revision <= m.revision {
		return nil
	}
	m.revision = r.Revision
	switch r.Type {
	case events.TypeUserErased, events.TypeFragmentDeleted:
		ids, err := memory.ErasedFragments(r)
		m.erase(ids)
		return err
	case events.TypeFragmentWritten:
	default:
		return nil
	}
	p, err := r.Decode()
	if err != nil {
		return err
	}
	f := p.(*events.FragmentWritten)
	if f.Tier != events.TierShared || f.Key == events.Erased || f.Value == events.Erased {
		return nil // not in the pool, or its content is destroyed: a replay never sees it
	}
	e := &entry{id: f.ID, user: f.User, rev: r.Revision, prov: access.Provenance{Agents: f.Agents, Resources: f.Resources}}
	e.terms, e.length = termCounts(f.Key + " " + f.Value)
	if f.Embedding != nil {
		if e.vec, err = f.Embedding.DecodeVector(); err != nil {
			return err
		}
		e.model = f.Embedding.Model
	}
	if a := f.Policy.Admission; a != nil && a.Score >= a.Threshold {
		l := &lesson{entry: *e, query: words(f.Key + " " + f.Value), answer: words(f.Value)}
		m.lessons[l.id] = l
		m.learn(l)
	}
	m.pool[e.id] = e
	m.post(e)
	return nil
}

// post adds e to the postings of its words; entries are posted in log
// order, so each list stays in log order.
func (m *Model) post(e *entry) {
	for w, tf := range e.terms {
		m.postings[w] = append(m.postings[w], posting{e: e, tf: tf})
	}
}

// erase removes ids from the pool and their lessons, and relearns every
// lesson whose pool held one of them, so the model is what a replay that
// never saw them builds.
func (m *Model) erase(ids []string) {
	var gone []*entry
	for _, id := range ids {
		if e, ok := m.pool[id]; ok {
			gone = append(gone, e)
			delete(m.pool, id)
			for w := range e.terms {
				m.postings[w] = slices.DeleteFunc(m.postings[w], func(p posting) bool { return p.e == e })
				if len(m.postings[w]) == 0 {
					delete(m.postings, w)
				}
			}
		}
		if l, ok := m.lessons[id]; ok {
			m.forget(l)
			delete(m.lessons, id)
		}
	}
	for _, l := range m.lessons {
		if slices.ContainsFunc(gone, func(e *entry) bool { return inPool(e, l) }) {
			m.learn(l)
		}
	}
}

// inPool reports whether e was in the pool lesson l learned from: written
// before it, with provenance within its.
func inPool(e *entry, l *lesson) bool {
	return e.rev < l.rev && subset(e.prov.Agents, l.prov.Agents) && subset(e.prov.Resources, l.prov.Resources)
}

// forget removes l's contributions from the index.
func (m *Model) forget(l *lesson) {
	for _, c := range l.deltas {
		delete(m.taught[c.Candidate], l.id)
		if len(m.taught[c.Candidate]) == 0 {
			delete(m.taught, c.Candidate)
		}
	}
	l.deltas = nil
}

// learn (re)computes l's contributions from the pool and indexes them.
func (m *Model) learn(l *lesson) {
	m.forget(l)
	l.deltas = m.label(l)
	m.index(l)
}

// index records l's contributions in the taught index.
func (m *Model) index(l *lesson) {
	for _, c := range l.deltas {
		if m.taught[c.Candidate] == nil {
			m.taught[c.Candidate] = map[string]bool{}
		}
		m.taught[c.Candidate][l.id] = true
	}
}

// Lessons is how many admitted fragments the model has learned from.
func (m *Model) Lessons() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return len(m.lessons)
}

// Taught returns δ(c, m) for every candidate admitted fragment id taught,
// sorted by candidate (nil when id taught nothing).
func (m *Model) Taught(id string) []Contribution {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if l, ok := m.lessons[id]; ok {
		return slices.Clone(l.deltas)
	}
	return nil
}

// Digest is a hash of everything the model learned (the pool's ids and
// revisions, every lesson's contributions to the bit): a model rebuilt from
// the log has the digest of the live one.
func (m *Model) Digest() string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	h := sha256.New()
	var b [8]byte
	put := func(s string, n uint64) {
		h.Write([]byte(s))
		binary.LittleEndian.PutUint64(b[:], n)
		h.Write(b[:])
	}
	for _, e := range sortedByRev(m.pool) {
		put(e.id, e.rev)
	}
	for _, l := range sortedByRev(m.lessons) {
		put("lesson "+l.id, l.rev)
		for _, c := range l.deltas {
			put(c.Candidate, math.Float64bits(c.Delta))
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

type revisioned interface{ revision() uint64 }

func (e *entry) revision() uint64 { return e.rev }

// sortedByRev returns the values of a map ordered by revision (log order).
func sortedByRev[T revisioned](in map[string]T) []T {
	out := make([]T, 0, len(in))
	for _, v := range in {
		out = append(out, v)
	}
	slices.SortFunc(out, func(a, b T) int { return cmp.Compare(a.revision(), b.revision()) })
	return out
}

// termCounts returns the content words of text with their counts, and
// how many there are.
func termCounts(text string) (map[string]int, int) {
	ws := embedding.Tokenize(text)
	out := make(map[string]int, len(ws))
	for _, w := range ws {
		out[w]++
	}
	return out, len(ws)
}

// words returns the content words of text, unique and sorted.
func words(text string) []string {
	ws := embedding.Tokenize(text)
	slices.Sort(ws)
	return slices.Compact(ws)
}

// subset reports whether every element of a is in b.
func subset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}
