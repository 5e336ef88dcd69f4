package app

// A scope's reader asks for the record's current state (Facts): the
// composer takes, for each part of the question, the newest clause that
// states it, and a recap question ("date, amount, room, token, blocker…")
// has many parts, each stated in its own notes among many that only
// mention the record. Ten items per tier, ranked for the question as a
// whole, leave most parts without their newest note; a scope's reader
// therefore reads governedK per tier. Measured on GateMem: education U
// 14.4 at 10, 16.1 at 20, 16.7 at 40; office 53.2, 54.5, 51.3 (why 40
// loses in office was not traced). Every item still comes through the
// same filtered view (M(u,a,t) on each one's provenance), so the reader
// is shown nothing it may not read — only more of what it may.

// governedK is the least tier size of a scope reader's memory view.
const governedK = 20

// viewK is the tier size agent's view is read with.
func viewK(agent string, k int) int {
	if governed(agent) {
		return max(k, min(governedK, MaxK))
	}
	return k
}
