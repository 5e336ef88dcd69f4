package scenario

// Reuse measures memory reuse in one run: an answer is memory-served when
// its query made no resource call. Savings count repeated questions (a
// fact asked before in the run, by anyone, in any wording), each of which
// perfect reuse answers without a call: the ideal is one saved call per
// repeat. A call saved by a wrong answer is no saving, so savings are
// reported over right answers, and over all answers beside it.
type Reuse struct {
	// Served is the number of memory-served answers, ServedRight those of
	// them that were right; Precision is ServedRight / Served (1 with none).
	Served      int     `json:"memory_served"`
	ServedRight int     `json:"memory_served_right"`
	Precision   float64 `json:"memory_served_precision"`
	// Repeats is the ideal number of saved calls; SavedAll the repeats
	// answered without a call, SavedRight those of them answered right.
	Repeats    int `json:"repeats"`
	SavedAll   int `json:"saved_all_answers"`
	SavedRight int `json:"saved_right_answers"`
	// SavingAll and SavingRight are SavedAll and SavedRight over Repeats
	// (0 with no repeats): the share of the ideal saving reached.
	SavingAll   float64 `json:"saving_all_answers"`
	SavingRight float64 `json:"saving_right_answers"`
}

// reuseOf measures qs; repeats[i] tells whether qs[i] asks a fact asked
// before it.
func reuseOf(qs []asked, repeats []bool) Reuse {
	var r Reuse
	for i, q := range qs {
		served := q.ResourceCalls == 0
		if served {
			r.Served++
			if q.Correct {
				r.ServedRight++
			}
		}
		if i < len(repeats) && repeats[i] {
			r.Repeats++
			if served {
				r.SavedAll++
				if q.Correct {
					r.SavedRight++
				}
			}
		}
	}
	r.Precision = 1
	if r.Served > 0 {
		r.Precision = float64(r.ServedRight) / float64(r.Served)
	}
	if r.Repeats > 0 {
		r.SavingAll = float64(r.SavedAll) / float64(r.Repeats)
		r.SavingRight = float64(r.SavedRight) / float64(r.Repeats)
	}
	return r
}
