package vectorstest

import (
	"testing"

	"github.com/cmem/cmem/vectors"
)

func testTiers(t *testing.T, newStore NewStore) {
	s := newStore(t, dims)
	upsert(t, s,
		frag(1, "shared", "alice", []string{"a"}, nil, unit(0)),
		frag(2, "private", "alice", []string{"a"}, nil, unit(0)),
	)
	all := []string{"a", "b", "c"}
	wantIDs(t, "shared", search(t, s, unit(0), filter("shared", "alice", all, nil), 10), id(1))
	wantIDs(t, "private", search(t, s, unit(0), filter("private", "alice", all, nil), 10), id(2))
	wantIDs(t, "unknown tier", search(t, s, unit(0), filter("team", "alice", all, nil), 10))
}

func testPrivate(t *testing.T, newStore NewStore) {
	s := newStore(t, dims)
	upsert(t, s,
		frag(1, "private", "alice", []string{"a"}, nil, unit(0)),
		frag(2, "private", "bob", []string{"a"}, nil, unit(0)),
		frag(3, "shared", "bob", []string{"a"}, nil, unit(0)),
		frag(4, "private", "carol", []string{"a"}, nil, unit(1)),
	)
	all := []string{"a", "b", "c"}
	wantIDs(t, "alice's private", search(t, s, unit(0), filter("private", "alice", all, nil), 10), id(1))
	wantIDs(t, "bob's private", search(t, s, unit(0), filter("private", "bob", all, nil), 10), id(2))
	wantIDs(t, "dave's private", search(t, s, unit(0), filter("private", "dave", all, nil), 10))
	// The user does not narrow the shared tier: bob's shared fragment is
	// for everyone whose permissions cover it.
	wantIDs(t, "shared, asked by alice", search(t, s, unit(0), filter("shared", "alice", all, nil), 10), id(3))
}

func testSubset(t *testing.T, newStore NewStore) {
	s := newStore(t, dims)
	upsert(t, s,
		frag(1, "shared", "u", []string{"a"}, nil, unit(0)),
		frag(2, "shared", "u", []string{"a", "b"}, nil, unit(0)),
		frag(3, "shared", "u", []string{"b"}, []string{"r1"}, unit(0)),
		frag(4, "shared", "u", []string{"a"}, []string{"r1", "r2"}, unit(0)),
		frag(5, "shared", "u", []string{"c"}, []string{"r3"}, unit(0)),
		frag(6, "shared", "u", []string{"a", "b", "c"}, nil, unit(0)),
	)
	cases := []struct {
		name              string
		agents, resources []string
		want              []int
	}{
		{"every agent, no resource: only fragments without resources", []string{"a", "b", "c"}, nil, []int{1, 2, 6}},
		{"agent a alone admits only what needs a alone", []string{"a"}, []string{"r1", "r2", "r3"}, []int{1, 4}},
		{"a and b, but not c: fragment 6 needs c", []string{"a", "b"}, []string{"r1", "r2", "r3"}, []int{1, 2, 3, 4}},
		{"r1 without r2 hides the fragment needing both", []string{"a", "b", "c"}, []string{"r1"}, []int{1, 2, 3, 6}},
		{"no agent admits nothing", nil, []string{"r1", "r2", "r3"}, nil},
		{"everything admits everything", []string{"a", "b", "c"}, []string{"r1", "r2", "r3"}, []int{1, 2, 3, 4, 5, 6}},
		{"an agent outside the universe changes nothing", []string{"a", "zz"}, nil, []int{1}},
	}
	for _, c := range cases {
		want := make([]string, len(c.want))
		for i, n := range c.want {
			want[i] = id(n) // equal scores: ascending ID
		}
		wantIDs(t, c.name, search(t, s, unit(0), filter("shared", "u", c.agents, c.resources), 10), want...)
	}
}

// A filter whose Excluded lists miss an id (say, an agent registered after
// the filter's universe was read) must still never admit a fragment that
// needs an id outside Allowed: the allowed sets are the contract.
func testIncompleteExcluded(t *testing.T, newStore NewStore) {
	s := newStore(t, dims)
	upsert(t, s,
		frag(1, "shared", "u", []string{"a"}, nil, unit(0)),
		frag(2, "shared", "u", []string{"a", "ghost"}, nil, unit(0)),
		frag(3, "shared", "u", []string{"a"}, []string{"ghost-kb"}, unit(0)),
	)
	f := vectors.Filter{
		Tier: "shared", AllowedAgents: []string{"a"}, AllowedResources: []string{"r1"},
		ExcludedAgents: []string{"b"}, ExcludedResources: []string{},
	}
	wantIDs(t, "incomplete excluded", search(t, s, unit(0), f, 10), id(1))
	wantIDs(t, "incomplete excluded, k=1", search(t, s, unit(0), f, 1), id(1))
}
