package timeexpr

import "time"

// absDate reads a calendar date at i: "7 May", "7th of May 2023", "May 7",
// "May 7th, 2023" (day grain) or "May 2023" (month grain). A missing year
// is the reference's.
func (s *scan) absDate(i int) (match, bool) {
	y := s.ref.Year()
	withYear := func(k int) (int, int) { // the year at k, and the words it took
		if v, ok := year(s.at(k)); ok {
			return v, 1
		}
		return y, 0
	}
	onDay := func(n, dd int, mo time.Month, yy int) (match, bool) {
		t := time.Date(yy, mo, dd, 0, 0, 0, 0, time.UTC)
		if t.Day() != dd { // 31 April
			return match{}, false
		}
		return match{n: n, start: t, end: dayPlus(t, 1), grain: Day}, true
	}
	if dd, ok := dayOfMonth(s.at(i)); ok {
		k := i + 1
		if s.at(k) == "of" {
			k++
		}
		if mo, ok := months[s.at(k)]; ok {
			yy, used := withYear(k + 1)
			return onDay(k+1+used-i, dd, mo, yy)
		}
		return match{}, false
	}
	mo, ok := months[s.at(i)]
	if !ok {
		return match{}, false
	}
	if dd, ok := dayOfMonth(s.at(i + 1)); ok {
		yy, used := withYear(i + 2)
		return onDay(2+used, dd, mo, yy)
	}
	if yy, ok := year(s.at(i + 1)); ok {
		st, en := monthSpan(monthStart(yy, mo))
		return match{n: 2, start: st, end: en, grain: Month}, true
	}
	return match{}, false
}

// yearWords are the words after which a lone four-digit number is a year.
var yearWords = map[string]bool{"in": true, "of": true, "during": true, "since": true, "from": true, "until": true, "by": true, "around": true}

// absolute reads a calendar date, "in <month>" (of the reference's year)
// and "in 2022".
func (s *scan) absolute(i int) (match, bool) {
	if m, ok := s.absDate(i); ok {
		return m, true
	}
	if !yearWords[s.at(i)] {
		return match{}, false
	}
	if _, ok := s.absDate(i + 1); ok {
		return match{}, false // the date itself is read at the next word
	}
	if yy, ok := year(s.at(i + 1)); ok {
		st, en := yearSpan(yearStart(yy))
		return match{n: 2, start: st, end: en, grain: Year}, true
	}
	if mo, ok := months[s.at(i+1)]; ok && s.at(i) == "in" && len(s.at(i+1)) > 3 || s.is(i, "in", "may") {
		st, en := monthSpan(monthStart(s.ref.Year(), mo))
		return match{n: 2, start: st, end: en, grain: Month}, true
	}
	return match{}, false
}

// anchored reads "the week before 9 June 2023", "the Sunday after May 7",
// "two days before 8 May": an interval next to an absolute day.
func (s *scan) anchored(i int) (match, bool) {
	n, used, x := 1, 1, ""
	if s.at(i) == "the" {
		x = s.at(i + 1)
	} else if c, u, ok := s.count(i); ok {
		if _, isUnit := unit(s.at(i + u)); !isUnit {
			return match{}, false
		}
		n, used, x = c, u, s.at(i+u)
	} else {
		return match{}, false
	}
	k := i + used + 1
	off := map[string]int{"before": -1, "after": 1}[s.at(k)]
	if off == 0 {
		return match{}, false
	}
	at, ok := s.absDate(k + 1)
	if !ok || at.grain != Day {
		return match{}, false
	}
	m := match{n: k + 1 + at.n - i, grain: Day}
	wd, isWeekday := weekdays[x]
	switch g, isUnit := unit(x); {
	case isUnit:
		m.start, m.end = shifted(at.start, g, off*n)
		m.grain = g
	case x == "weekend":
		m.start, m.end = weekendAround(at.start, off)
	case isWeekday:
		m.start, m.end = oneDay(weekdayFrom(at.start, wd, off))
	default:
		return match{}, false
	}
	m.rel = s.phrase(i, m.n)
	return m, true
}

// weekendAround is the last weekend ending before d (off -1) or the first
// starting after it (1).
func weekendAround(d time.Time, off int) (time.Time, time.Time) {
	if off < 0 {
		return weekendOf(dayPlus(d, -7))
	}
	st, en := weekendOf(d)
	if !st.After(d) {
		return weekendOf(dayPlus(d, 7))
	}
	return st, en
}
