package access_test

import (
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/projectors/access"
)

// Example builds the access graphs from a short log, in log order, and asks
// who may use what: now, as of a past revision and as of a past time.
func Example() {
	expiry := at("10:00")
	g := access.NewGraph()
	for i, ev := range []struct {
		at string
		p  events.Payload
	}{
		{"09:00", &events.UserAgentGranted{User: "alice", Agent: "planner"}},                    // revision 1
		{"09:00", &events.AgentResourceGranted{Agent: "planner", Resource: "guide"}},            // revision 2
		{"09:05", &events.UserAgentGranted{User: "bob", Agent: "planner"}},                      // revision 3
		{"09:05", &events.UserAgentGranted{User: "alice", Agent: "critic", ExpiresAt: &expiry}}, // revision 4
		{"09:10", &events.UserAgentRevoked{User: "bob", Agent: "planner"}},                      // revision 5
	} {
		e, err := events.New(events.Meta{Source: "example", Actor: "admin", Time: at(ev.at)}, ev.p)
		if err == nil {
			err = g.Apply(events.Record{Envelope: e, Revision: uint64(i + 1)})
		}
		if err != nil {
			log.Fatal(err)
		}
	}

	// Now is the point enforcement asks at: every event applied, judged at
	// a wall clock, so alice's grant of critic ends at 10:00 by itself.
	for _, clock := range []string{"09:30", "10:30"} {
		now := access.Now(g.Revision(), at(clock))
		fmt.Printf("%s alice: %s; bob: %s\n", clock, describe(g.Access("alice", now)), describe(g.Access("bob", now)))
	}
	// The past: bob could use planner, and planner the guide, at revision
	// 3 and at 09:07; revision 5 revoked bob's grant.
	fmt.Println("bob at revision 3:", g.Agents("bob", access.AtRevision(3)), g.CanUse("planner", "guide", access.AtRevision(3)))
	fmt.Println("bob at 09:07:", g.Agents("bob", access.AtTime(at("09:07"))))
	fmt.Println("bob at revision 5:", g.Agents("bob", access.AtRevision(5)))

	// The read rule: may bob, through planner, read what planner wrote
	// from the guide?
	prov := access.Provenance{Agents: []string{"planner"}, Resources: []string{"guide"}}
	bob := access.Reader{User: "bob", Agent: "planner"}
	fmt.Println("at revision 3:", g.Admits(bob, prov, access.AtRevision(3)).OK)
	fmt.Println("at revision 5:", g.Admits(bob, prov, access.AtRevision(5)).Reason("bob"))
	// Output:
	// 09:30 alice: critic until 10:00, planner with [guide]; bob: nothing
	// 10:30 alice: planner with [guide]; bob: nothing
	// bob at revision 3: [planner] true
	// bob at 09:07: [planner]
	// bob at revision 5: []
	// at revision 3: true
	// at revision 5: agent planner is not available to bob
}

// at is hh:mm on the day of the example, in UTC.
func at(hhmm string) time.Time {
	t, err := time.Parse("2006-01-02 15:04", "2026-11-02 "+hhmm)
	if err != nil {
		log.Fatal(err)
	}
	return t
}

// describe says which agents a user may use, with their resources and
// expiries.
func describe(acc []access.AgentAccess) string {
	var parts []string
	for _, a := range acc {
		s := a.ID
		if len(a.Resources) > 0 {
			s += fmt.Sprint(" with ", a.Resources)
		}
		if a.ExpiresAt != nil {
			s += " until " + a.ExpiresAt.Format("15:04")
		}
		parts = append(parts, s)
	}
	if parts == nil {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}
