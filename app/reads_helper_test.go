package app_test

import (
	"context"
	"slices"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/projectors/access"
)

// readCase is one expectation of checkReads: whether user may use agent.
type readCase struct {
	user, agent string
	want        bool
}

// checkReads asserts each case against the user's current access.
func checkReads(t *testing.T, r *rig, cases []readCase) {
	t.Helper()
	for _, c := range cases {
		acc, err := r.app.AccessOf(context.Background(), admin, c.user, app.AsOf{})
		if err != nil {
			t.Fatal(err)
		}
		got := slices.ContainsFunc(acc.Agents, func(a access.AgentAccess) bool { return a.ID == c.agent })
		if got != c.want {
			t.Errorf("%s reads %s: %v, want %v", c.user, c.agent, got, c.want)
		}
	}
}
