package offline

import "strings"

// A recap lists several values in one clause: "budget 224,000 USD,
// discount cap 9%, contract no longer auto-renews". When a later note
// names one of them as past, only that value is stale; the clause's other
// items still state what they said. So staleness is judged per listed
// item: the items holding a past value are dropped and the clause keeps
// those that state no value of their own ("contract no longer
// auto-renews"): the recap's other values (a date, an amount) were most
// likely current when the past one was, and are as likely replaced since,
// quietly. The clause is stale only when nothing is left.

// withoutPastItems returns text less its listed items (itemStarts) that
// hold a value, past or not; ok is false when no item is left or the text is
// one item.
func withoutPastItems(text string, past map[string]bool) (string, bool) {
	fields := strings.Fields(text)
	starts := itemStarts(fields)
	var kept []string
	items, dropped := 0, false
	for from := 0; from < len(fields); {
		to := from + 1
		for to < len(fields) && !starts[to] {
			to++
		}
		items++
		item := fields[from:to]
		if holdsPast(item, past) || digitRE.MatchString(strings.Join(item, " ")) {
			dropped = true
		} else {
			kept = append(kept, item...)
		}
		from = to
	}
	if items < 2 || !dropped || len(kept) == 0 {
		return text, false
	}
	out := strings.TrimRight(strings.Join(kept, " "), ",")
	out = strings.TrimPrefix(strings.TrimPrefix(out, "and "), "And ")
	return out, true
}

// holdsPast says whether one of fields is a value of past.
func holdsPast(fields []string, past map[string]bool) bool {
	for _, f := range fields {
		if past[strings.Trim(f, ".,;:()'\"“”")] {
			return true
		}
	}
	return false
}
