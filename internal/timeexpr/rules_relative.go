package timeexpr

import "time"

// fixedDay reads today, yesterday, tomorrow and their kin.
func (s *scan) fixedDay(i int) (match, bool) {
	d := dayLabel(s.ref)
	one := func(n, off int, rel string) (match, bool) {
		st, en := oneDay(dayPlus(s.ref, off))
		return match{n: n, start: st, end: en, grain: Day, rel: rel}, true
	}
	switch {
	case s.is(i, "the", "day", "before", "yesterday"):
		return one(4, -2, "two days before "+d)
	case s.is(i, "the", "day", "after", "tomorrow"):
		return one(4, 2, "two days after "+d)
	case s.is(i, "yesterday"):
		return one(1, -1, "the day before "+d)
	case s.is(i, "last", "night"):
		return one(2, -1, "the night before "+d)
	case s.is(i, "tomorrow"):
		return one(1, 1, "the day after "+d)
	case s.is(i, "today"), s.is(i, "tonight"):
		return one(1, 0, d)
	case s.is(i, "this", "morning"), s.is(i, "this", "afternoon"), s.is(i, "this", "evening"):
		return one(2, 0, d)
	}
	return match{}, false
}

// count reads "two", "2", "a", "a couple of", "couple of" at i: the number
// and how many words it took.
func (s *scan) count(i int) (n, used int, ok bool) {
	switch {
	case s.is(i, "a", "couple", "of"):
		return 2, 3, true
	case s.is(i, "couple", "of"):
		return 2, 2, true
	}
	n, ok = number(s.at(i))
	return n, 1, ok
}

// shifted is the interval at grain g, n units away from day d.
func shifted(d time.Time, g Grain, n int) (time.Time, time.Time) {
	switch g {
	case Week:
		return weekSpan(dayPlus(d, 7*n))
	case Month:
		return monthSpan(monthStart(d.Year(), d.Month()).AddDate(0, n, 0))
	case Year:
		return yearSpan(yearStart(d.Year() + n))
	}
	return oneDay(dayPlus(d, n))
}

// ago reads "N units ago".
func (s *scan) ago(i int) (match, bool) {
	n, used, ok := s.count(i)
	if w := s.at(i + used); ok && (w == "weekends" || w == "weekend") && s.at(i+used+1) == "ago" {
		// "two weekends ago": the weekend n weeks back.
		st, en := weekendOf(dayPlus(s.ref, -7*n))
		return match{n: used + 2, start: st, end: en, grain: Day, rel: s.phrase(i, used+1) + " before " + dayLabel(s.ref)}, true
	}
	g, isUnit := unit(s.at(i + used))
	if !ok || !isUnit || s.at(i+used+1) != "ago" {
		return match{}, false
	}
	st, en := shifted(s.ref, g, -n)
	return match{n: used + 2, start: st, end: en, grain: g, rel: s.phrase(i, used+1) + " before " + dayLabel(s.ref)}, true
}

// ahead reads "in N units" and "N units from now".
func (s *scan) ahead(i int) (match, bool) {
	from := i
	if s.at(i) == "in" {
		from = i + 1
	}
	n, used, ok := s.count(from)
	g, isUnit := unit(s.at(from + used))
	if !ok || !isUnit {
		return match{}, false
	}
	words := from - i + used + 1 // "in" N unit
	if from == i {
		if !s.is(i+used+1, "from", "now") {
			return match{}, false
		}
		words += 2
	}
	st, en := shifted(s.ref, g, n)
	return match{n: words, start: st, end: en, grain: g, rel: s.phrase(from, used+1) + " after " + dayLabel(s.ref)}, true
}

// phrase is the n words from i as written.
func (s *scan) phrase(i, n int) string { return s.text[s.toks[i].pos:s.toks[i+n-1].end] }
