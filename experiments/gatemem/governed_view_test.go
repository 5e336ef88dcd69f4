package gatemem

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// A scope's reader answering a recap reads more of the record than the
// ten notes a plain agent reads (app/pipeline_governed_k.go) — and still
// nothing of a scope it does not read.
func TestScopeReaderReadsMoreOfItsRecord(t *testing.T) {
	a, tok := org(t)
	var rev uint64
	for i := 1; i <= 14; i++ {
		rev = max(rev, say(t, a, tok["ava"], fmt.Sprintf("Heron status note %d: the Heron recap keeps its date, room and blocker current.", i)).Revision)
	}
	osprey := say(t, a, tok["lucia"], "Osprey status note: the Osprey recap date is May 9 and its blocker is badge sync.")
	// The notes are indexed before the question is asked.
	viewAfter(t, a, tok["ava"], "project_heron", "Heron recap", max(rev, osprey.Revision))
	ans, err := a.ask(context.Background(), tok["ava"], "What are the current Heron recap date, room and blocker?")
	if err != nil {
		t.Fatal(err)
	}
	if len(ans.FragmentsRead) <= 10 {
		t.Fatalf("the scope reader read %d notes of the 14 it may read, want more than 10", len(ans.FragmentsRead))
	}
	for _, f := range osprey.Fragments {
		for _, id := range ans.FragmentsRead {
			if id == f.ID {
				t.Fatalf("ava read the Osprey note %s", id)
			}
		}
	}
	if strings.Contains(ans.Answer, "Osprey") {
		t.Fatalf("answer %q", ans.Answer)
	}
}
