package timeexpr

import (
	"fmt"
	"time"
)

// Grain is the precision of a resolved expression.
type Grain string

// The grains, finest first.
const (
	Day    Grain = "day"
	Week   Grain = "week"
	Month  Grain = "month"
	Season Grain = "season"
	Year   Grain = "year"
)

// Span is one time expression found in a text and the interval of time it
// names: [Start, End), both at midnight UTC.
type Span struct {
	// Text is the expression as written; Pos its byte offset in the text.
	Text string
	Pos  int
	// Start is the first instant of the interval, End the first after it.
	Start, End time.Time
	Grain      Grain
	// Relative says the same relative to the day the expression was
	// anchored on ("the week before 9 June 2023"), as a conversation's
	// reader would; empty for an absolute date.
	Relative string
}

// Label is the interval in words: "7 May 2023", "20–21 May 2023", "the week
// of 29 May 2023", "May 2023", "summer 2022" or "2022".
func (s Span) Label() string {
	switch s.Grain {
	case Week:
		return "the week of " + dayLabel(s.Start)
	case Month:
		return s.Start.Format("January 2006")
	case Season:
		return fmt.Sprintf("%s %d", seasonName(s.Start.Month()), s.Start.Year())
	case Year:
		return s.Start.Format("2006")
	}
	last := s.End.AddDate(0, 0, -1)
	switch {
	case !last.After(s.Start):
		return dayLabel(s.Start)
	case last.Month() == s.Start.Month():
		return fmt.Sprintf("%d–%s", s.Start.Day(), dayLabel(last))
	}
	return dayLabel(s.Start) + " – " + dayLabel(last)
}

// dayLabel writes a day as LoCoMo's answers do: "7 May 2023".
func dayLabel(t time.Time) string { return t.Format("2 January 2006") }

func seasonName(m time.Month) string {
	switch m {
	case time.March:
		return "spring"
	case time.June:
		return "summer"
	case time.September:
		return "autumn"
	}
	return "winter"
}
