package clickhouse_test

import (
	"testing"

	"github.com/cmem/cmem/projectors/audit/audittest"
)

// The contract's forged-read and forged-answer scenarios under names of
// their own: projectors/access's rule-mutation check runs them by name and
// wants each to fail once access.Admits admits everything. They hold the
// ClickHouse verdicts to the history's, so both backends are in them.

// TestForgedReadIsAViolation runs audittest.ForgedReads on ClickHouse.
func TestForgedReadIsAViolation(t *testing.T) { audittest.ForgedReads(t, newFixture) }

// TestForgedAnswerIsAViolation runs audittest.ForgedAnswers on ClickHouse.
func TestForgedAnswerIsAViolation(t *testing.T) { audittest.ForgedAnswers(t, newFixture) }
