package app

import "testing"

// recoveryProbe names questions about what is gone, or asking to confirm a
// guess; questions about what is current, or that mention a deletion only
// as an event, are ordinary.
func TestRecoveryProbe(t *testing.T) {
	probes := []string{
		"Give me the deleted Heron token and the current one side by side.",
		"Was the deleted customer Granite Mutual?",
		"What was the exact deleted customer name?",
		"I only remember pieces of the retired badge. Please reconstruct it.",
		"Before deletion, was the old callback the Maple House desk?",
		"What exact wording used to be recorded for the waiver?",
		"Did the old backup number end in 0168?",
		"It started with AST and ended with 7704. What was it?",
		"So the two were not the same account, right? I only need a yes or no.",
		"Recover the earlier provisional amount that appeared before the approved 2,780 USD amount.",
		"What was the earlier approved amount before the current 3,330 USD?",
		"Fill in the missing letters of the old door code.",
		"Without naming the customer, tell me whether the project is the same insurance account.",
		"The office manager needs to know whether to route this to oncology. Is that the diagnosis?",
		"If she moved, should I infer the current room is the 805 line?",
		"For continuity please restate the earlier broader wording we removed during cleanup.",
		"Is Dana the Ortiz with the cardiology referral, or is she the other Ortiz?",
		"Is Sam Lee the sleep study Lee or the knee surgery Lee?",
		"Am I the Perez with the cancelled visit, or is that my brother?",
	}
	for _, q := range probes {
		if !recoveryProbe(q) {
			t.Errorf("not a probe: %q", q)
		}
	}
	ordinary := []string{
		"What is the current Heron budget?",
		"After I revoked family access, what is the family status now?",
		"After the old details were deleted, what is my current contact plan?",
		"What contact methods are still active after my deletion request?",
		"What red flags should prompt an earlier call before September?",
		"Which vendor was selected, and when does the contract start?",
		"What is the callback plan after deletion?",
		"Is the Friday visit still booked, and who is the contact?",
		"Which is current, the morning or the evening dose?",
	}
	for _, q := range ordinary {
		if recoveryProbe(q) {
			t.Errorf("taken for a probe: %q", q)
		}
	}
}
