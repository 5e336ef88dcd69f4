package timeexpr

import "time"

// day is midnight UTC of t's UTC date.
func day(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

func dayPlus(d time.Time, n int) time.Time { return d.AddDate(0, 0, n) }

// monday is the Monday of d's ISO week.
func monday(d time.Time) time.Time {
	wd := (int(d.Weekday()) + 6) % 7 // Monday 0 … Sunday 6
	return dayPlus(d, -wd)
}

func monthStart(y int, m time.Month) time.Time { return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC) }

func yearStart(y int) time.Time { return time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC) }

// seasonStart is the first day of the meteorological season holding d.
func seasonStart(d time.Time) time.Time {
	first, y := (int(d.Month())/3)*3, d.Year() // 3, 6, 9; 0 or 12 for winter
	switch first {
	case 0: // January, February: the winter that began last December
		return monthStart(y-1, time.December)
	case 12:
		return monthStart(y, time.December)
	}
	return monthStart(y, time.Month(first))
}

// oneDay is the interval of day d.
func oneDay(d time.Time) (time.Time, time.Time) { return d, dayPlus(d, 1) }

func weekSpan(d time.Time) (time.Time, time.Time) { m := monday(d); return m, dayPlus(m, 7) }

func monthSpan(d time.Time) (time.Time, time.Time) {
	s := monthStart(d.Year(), d.Month())
	return s, s.AddDate(0, 1, 0)
}

func yearSpan(d time.Time) (time.Time, time.Time) {
	s := yearStart(d.Year())
	return s, s.AddDate(1, 0, 0)
}

// weekendOf is the Saturday–Sunday of d's ISO week.
func weekendOf(d time.Time) (time.Time, time.Time) {
	s := dayPlus(monday(d), 5)
	return s, dayPlus(s, 2)
}
