package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/domain"
	"github.com/cmem/cmem/events"
)

// A scope's reader asking for "the diagnosis" is shown the note that
// calls it "the suspicion", which notes holding more of the question's
// other words would otherwise push out of a small view.
func TestScopeReaderIsShownTheNotesWordForTheAskedThing(t *testing.T) {
	ctx := context.Background()
	spy := &answerSpy{Provider: newOffline(t)}
	r := newRig(t, spy)
	registerUsers(t, r, "ava")
	if _, err := r.app.ImportRelationships(ctx, admin, app.ImportRequest{Schema: officeSchema, Relationships: []app.Relationship{
		{"type": "project_member", "project_id": "heron", "principal_id": "ava"},
	}}); err != nil {
		t.Fatal(err)
	}
	ava := domain.Identity{ID: "ava"}
	for _, text := range []string{
		"Heron: the suspicion is a stale cache on the build workers.",
		"Heron current sprint board is updated for the week.",
		"Heron current standup moved to the small room.",
		"Heron current lunch order is pizza again.",
	} {
		if _, err := r.app.IngestTurn(ctx, ava, app.TurnRequest{Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	p := r.pipeline(t, app.PipelineConfig{KUser: 1, KCross: 1})
	sel := events.AgentSelected{QueryID: "q1", User: "ava", Round: 1, Agent: "scope-project_heron", Subquery: "What is the current Heron diagnosis?",
		Offered: []string{"scope-project_heron"}, Label: &events.Label{Agents: []string{}, Resources: []string{}}}
	if err := p.RunAgentTurn(ctx, app.AgentTurnCmd{Selected: sel, Revision: r.selected(t, sel)}); err != nil {
		t.Fatal(err)
	}
	if len(spy.seen) != 1 {
		t.Fatalf("the agent ran %d times", len(spy.seen))
	}
	for _, m := range spy.seen[0].Memory {
		if strings.Contains(m.Value, "stale cache") {
			return
		}
	}
	t.Fatalf("the suspicion note was not shown: %+v", spy.seen[0].Memory)
}
