package access_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The tests that hold each path to the one read rule. Each must fail when
// the rule is gone (the rulemutation build tag makes Admits admit
// everything): if one passes, that path does not enforce the rule through
// access.Admits, or its test cannot see a leak.
var ruleHolders = map[string][]string{
	"./app/": {
		"TestViewDropsInadmissibleHitsOfALeakyStore",         // memory view
		"TestWriteRefusesSourcesTheWriterCannotRead",         // write check
		"TestCoordinatorHistoryIsOnlyWhatTheUserMayStillSee", // history
		"TestDeliveryWithholdsWhatTheUserLost",               // delivery
		"TestGraphMemoryHidesWhatARevokeTook",                // graph memory
		"TestRerankerIgnoresWhatTheReaderCannotSee",          // learned re-ranker
		"TestRescoringIgnoresWhatTheReaderCannotSee",         // second stage of a view
		"TestNeighboursIgnoreWhatTheReaderCannotSee",         // neighbours of a view's hits
		"TestSupersessionHidesNothingAcrossTheReadRule",      // current version, history
		"TestModelDecidesSupersession",                       // what the fact judge is shown
		"TestWithheldReadLeavesOutItsClasses",                // need to know inside a scope
		"TestCredentialInAPersonalRecordIsVaulted",           // a credential said in a personal record
		"TestOwnCredentialInASharedThreadIsPersonal",         // and one's own, said in a shared thread
	},
	"./projectors/graphmem/":         {"TestTraversalMatchesReferenceUnderChurn", "TestRevokeHidesInsightsRestingOnTheEdge"}, // graph traversal
	"./projectors/audit/clickhouse/": {"TestForgedReadIsAViolation", "TestForgedAnswerIsAViolation"},                         // audit, both backends
	"./cmd/cmem/":                    {"TestAuditFindsForgedAnswer"},                                                         // the audit's API and CLI
	"./test/e2e/": { // end to end
		"TestCopyingModelLeaksNothing", "TestRevokeDuringSlowToolCall",
		"TestRevokeMidQueryInEveryCoordinationScheme", // every coordination scheme
	},
}

func TestRuleMutationIsCaught(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the suites again with -tags rulemutation; run without -short (make test does)")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for pkg, tests := range ruleHolders {
		cmd := exec.Command("go", "test", "-count=1", "-tags", "rulemutation", "-run", "^("+strings.Join(tests, "|")+")$", pkg)
		cmd.Dir = root
		cmd.Env = os.Environ()
		out, err := cmd.CombinedOutput()
		if err == nil {
			t.Errorf("%s passed with the read rule removed:\n%s", pkg, tail(out))
			continue
		}
		for _, name := range tests {
			if !strings.Contains(string(out), "--- FAIL: "+name+" ") {
				t.Errorf("%s.%s passed with the read rule removed", pkg, name)
			}
		}
	}
}

func tail(b []byte) string {
	s := string(b)
	if len(s) > 4000 {
		s = s[len(s)-4000:]
	}
	return s
}
