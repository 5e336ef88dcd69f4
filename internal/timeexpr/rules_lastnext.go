package timeexpr

import (
	"strings"
	"time"
)

// lastNext reads last/this/next followed by week, weekend, month, year, a
// weekday, a month's name or a season.
func (s *scan) lastNext(i int) (match, bool) {
	dir := map[string]int{"last": -1, "this": 0, "next": 1}
	off, ok := dir[s.at(i)]
	if !ok {
		return match{}, false
	}
	x, d := s.at(i+1), s.ref
	m := match{n: 2}
	if off == 0 && x == "past" {
		// "this past weekend" is the last one.
		off, x, m.n = -1, s.at(i+2), 3
	}
	if full, ok := weekdayAbbrev[x]; ok {
		x = full // "last Fri"
	}
	switch {
	case x == "week" || x == "month" || x == "year":
		g, _ := unit(x)
		m.start, m.end = shifted(d, g, off)
		m.grain = g
		m.rel = relWord(off, "the "+x, d)
	case x == "weekend":
		m.start, m.end = weekendOf(dayPlus(d, 7*off))
		m.grain, m.rel = Day, relWord(off, "the weekend", d)
	case weekdays[x] != 0 || x == "sunday":
		m.start, m.end = oneDay(weekdayFrom(d, weekdays[x], off))
		m.grain, m.rel = Day, relWord(off, "the "+strings.ToUpper(x[:1])+x[1:], d)
	case months[x] != 0 && (len(x) > 3 || x == "may"):
		m.start, m.end = monthSpan(monthFrom(d, months[x], off))
		m.grain = Month
	case seasons[x] != 0:
		m.start, m.end = seasonFrom(d, seasons[x], off)
		m.grain = Season
	default:
		return match{}, false
	}
	return m, true
}

// relWord phrases a last/this/next expression against day d.
func relWord(off int, what string, d time.Time) string {
	switch off {
	case -1:
		return what + " before " + dayLabel(d)
	case 1:
		return what + " after " + dayLabel(d)
	}
	return what + " of " + dayLabel(d)
}

// weekdayFrom is the weekday wd strictly before d (off -1), strictly after
// it (1), or in d's ISO week (0).
func weekdayFrom(d time.Time, wd time.Weekday, off int) time.Time {
	switch off {
	case -1:
		back := (int(d.Weekday()) - int(wd) + 7) % 7
		if back == 0 {
			back = 7
		}
		return dayPlus(d, -back)
	case 1:
		ahead := (int(wd) - int(d.Weekday()) + 7) % 7
		if ahead == 0 {
			ahead = 7
		}
		return dayPlus(d, ahead)
	}
	return dayPlus(monday(d), (int(wd)+6)%7)
}

// monthFrom is the month m that ended before d's month (off -1), the one of
// d's year (0), or the first that starts after d's month (1).
func monthFrom(d time.Time, m time.Month, off int) time.Time {
	y := d.Year()
	switch {
	case off < 0 && m >= d.Month():
		y--
	case off > 0 && m <= d.Month():
		y++
	}
	return monthStart(y, m)
}

// seasonFrom is the season starting in month first that ended before d's
// season (off -1), the one of d's year (0, winter: the one holding d or
// starting in d's December), or the first starting after d (1).
func seasonFrom(d time.Time, first time.Month, off int) (time.Time, time.Time) {
	cur := seasonStart(d)
	st := monthStart(d.Year(), first)
	switch {
	case off < 0:
		for !st.Before(cur) {
			st = st.AddDate(-1, 0, 0)
		}
	case off > 0:
		for !st.After(d) {
			st = st.AddDate(1, 0, 0)
		}
	case first == time.December && cur.Month() == time.December:
		st = cur
	}
	return st, st.AddDate(0, 3, 0)
}
