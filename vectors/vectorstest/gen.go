package vectorstest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/cmem/cmem/vectors"
)

// Mix describes a random universe and the provenance of its fragments.
type Mix struct {
	Agents, Resources, Users int
	// Each fragment needs 1..MaxAgents agents and 0..MaxResources resources.
	MaxAgents, MaxResources int
	// PrivateFrac is the share of fragments in the private tier.
	PrivateFrac float64
}

// SmallMix is the universe of the randomized contract test: small enough
// that filters often exclude, and often admit, any given fragment.
var SmallMix = Mix{Agents: 8, Resources: 10, Users: 6, MaxAgents: 3, MaxResources: 3, PrivateFrac: 0.4}

// BenchMix is a realistic deployment for the benchmarks.
var BenchMix = Mix{Agents: 100, Resources: 1000, Users: 200, MaxAgents: 3, MaxResources: 3, PrivateFrac: 0.3}

// Gen generates fragments, filters and vectors from one seed, so a failure
// can be replayed.
type Gen struct {
	Dims      int
	Mix       Mix
	Agents    []string // the universe, sorted
	Resources []string
	Users     []string

	rng  *rand.Rand
	seq  uint64
	zipf *rand.Zipf // BenchText's, made on first use
}

// NewGen returns a generator of dims-dimensional data over mix's universe.
func NewGen(seed uint64, dims int, mix Mix) *Gen {
	g := &Gen{Dims: dims, Mix: mix, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	g.Agents = names("agent", mix.Agents)
	g.Resources = names("res", mix.Resources)
	g.Users = names("user", mix.Users)
	return g
}

func names(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s-%04d", prefix, i)
	}
	return out
}

// Vector returns a random vector with Gaussian components, so directions
// are uniform on the sphere.
func (g *Gen) Vector() []float32 {
	v := make([]float32, g.Dims)
	for i := range v {
		v[i] = float32(g.rng.NormFloat64())
	}
	return v
}

// ID returns a fresh random UUID (version 4 layout).
func (g *Gen) ID() string {
	hi, lo := g.rng.Uint64(), g.rng.Uint64()
	hi = hi&^0xf000 | 0x4000     // version 4
	lo = lo&^(0xc<<60) | 0x8<<60 // RFC 4122 variant
	return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x",
		hi>>32, (hi>>16)&0xffff, hi&0xffff, lo>>48, lo&0xffffffffffff)
}

// Fragment returns a new fragment with random content, provenance and
// vector.
func (g *Gen) Fragment() vectors.Fragment {
	g.seq++
	tier := "shared"
	if g.rng.Float64() < g.Mix.PrivateFrac {
		tier = "private"
	}
	return vectors.Fragment{
		ID:        g.ID(),
		Key:       fmt.Sprintf("key %d", g.seq),
		Value:     fmt.Sprintf("value of fragment %d", g.seq),
		Tier:      tier,
		User:      g.Users[g.rng.IntN(len(g.Users))],
		Agents:    g.pick(g.Agents, 1+g.rng.IntN(g.Mix.MaxAgents)),
		Resources: g.pick(g.Resources, g.rng.IntN(g.Mix.MaxResources+1)),
		CreatedAt: time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC).Add(time.Duration(g.seq)*time.Millisecond + 123),
		Revision:  g.seq,
		Model:     "test-model-v1",
		Vector:    g.Vector(),
	}
}

// Fragments returns n new fragments.
func (g *Gen) Fragments(n int) []vectors.Fragment {
	out := make([]vectors.Fragment, n)
	for i := range out {
		out[i] = g.Fragment()
	}
	return out
}

// pick returns n distinct elements of from, sorted.
func (g *Gen) pick(from []string, n int) []string {
	n = min(n, len(from))
	out := make([]string, 0, n)
	for _, i := range g.rng.Perm(len(from))[:n] {
		out = append(out, from[i])
	}
	slices.Sort(out)
	return out
}

// Filter returns a filter for a random tier and user in which every agent
// and every resource is allowed with probability allow.
func (g *Gen) Filter(allow float64) vectors.Filter {
	tier := "shared"
	if g.rng.Float64() < g.Mix.PrivateFrac {
		tier = "private"
	}
	user := g.Users[g.rng.IntN(len(g.Users))]
	return vectors.NewFilter(tier, user,
		g.subset(g.Agents, allow), g.Agents, g.subset(g.Resources, allow), g.Resources)
}

func (g *Gen) subset(from []string, p float64) []string {
	out := []string{}
	for _, x := range from {
		if g.rng.Float64() < p {
			out = append(out, x)
		}
	}
	return out
}

// Float64 exposes the generator's randomness to callers that vary their
// own parameters from the same seed.
func (g *Gen) Float64() float64 { return g.rng.Float64() }

// IntN returns a random int in [0, n).
func (g *Gen) IntN(n int) int { return g.rng.IntN(n) }
