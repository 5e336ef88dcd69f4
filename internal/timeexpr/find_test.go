package timeexpr

import (
	"strings"
	"testing"
	"time"
)

// ref is Friday 9 June 2023, in the afternoon.
var ref = time.Date(2023, 6, 9, 15, 4, 0, 0, time.UTC)

func d(y int, m time.Month, dd int) time.Time { return time.Date(y, m, dd, 0, 0, 0, 0, time.UTC) }

func TestResolve(t *testing.T) {
	for _, tc := range []struct {
		expr       string
		start, end time.Time
		grain      Grain
		rel        string
	}{
		{"yesterday", d(2023, 6, 8), d(2023, 6, 9), Day, "the day before 9 June 2023"},
		{"today", d(2023, 6, 9), d(2023, 6, 10), Day, "9 June 2023"},
		{"this morning", d(2023, 6, 9), d(2023, 6, 10), Day, "9 June 2023"},
		{"tomorrow", d(2023, 6, 10), d(2023, 6, 11), Day, "the day after 9 June 2023"},
		{"last night", d(2023, 6, 8), d(2023, 6, 9), Day, "the night before 9 June 2023"},
		{"the day before yesterday", d(2023, 6, 7), d(2023, 6, 8), Day, "two days before 9 June 2023"},
		{"the day after tomorrow", d(2023, 6, 11), d(2023, 6, 12), Day, "two days after 9 June 2023"},
		{"two days ago", d(2023, 6, 7), d(2023, 6, 8), Day, "two days before 9 June 2023"},
		{"2 days ago", d(2023, 6, 7), d(2023, 6, 8), Day, "2 days before 9 June 2023"},
		{"a couple of days ago", d(2023, 6, 7), d(2023, 6, 8), Day, "a couple of days before 9 June 2023"},
		{"Two weeks ago", d(2023, 5, 22), d(2023, 5, 29), Week, "Two weeks before 9 June 2023"},
		{"a month ago", d(2023, 5, 1), d(2023, 6, 1), Month, "a month before 9 June 2023"},
		{"three years ago", d(2020, 1, 1), d(2021, 1, 1), Year, "three years before 9 June 2023"},
		{"in two weeks", d(2023, 6, 19), d(2023, 6, 26), Week, "two weeks after 9 June 2023"},
		{"3 days from now", d(2023, 6, 12), d(2023, 6, 13), Day, "3 days after 9 June 2023"},
		{"last week", d(2023, 5, 29), d(2023, 6, 5), Week, "the week before 9 June 2023"},
		{"this week", d(2023, 6, 5), d(2023, 6, 12), Week, "the week of 9 June 2023"},
		{"next week", d(2023, 6, 12), d(2023, 6, 19), Week, "the week after 9 June 2023"},
		{"last month", d(2023, 5, 1), d(2023, 6, 1), Month, "the month before 9 June 2023"},
		{"next month", d(2023, 7, 1), d(2023, 8, 1), Month, "the month after 9 June 2023"},
		{"last year", d(2022, 1, 1), d(2023, 1, 1), Year, "the year before 9 June 2023"},
		{"last weekend", d(2023, 6, 3), d(2023, 6, 5), Day, "the weekend before 9 June 2023"},
		{"this weekend", d(2023, 6, 10), d(2023, 6, 12), Day, "the weekend of 9 June 2023"},
		{"next weekend", d(2023, 6, 17), d(2023, 6, 19), Day, "the weekend after 9 June 2023"},
		{"last Saturday", d(2023, 6, 3), d(2023, 6, 4), Day, "the Saturday before 9 June 2023"},
		{"last Friday", d(2023, 6, 2), d(2023, 6, 3), Day, "the Friday before 9 June 2023"},
		{"last sunday", d(2023, 6, 4), d(2023, 6, 5), Day, "the Sunday before 9 June 2023"},
		{"next Friday", d(2023, 6, 16), d(2023, 6, 17), Day, "the Friday after 9 June 2023"},
		{"this Monday", d(2023, 6, 5), d(2023, 6, 6), Day, "the Monday of 9 June 2023"},
		{"last May", d(2023, 5, 1), d(2023, 6, 1), Month, ""},
		{"last June", d(2022, 6, 1), d(2022, 7, 1), Month, ""},
		{"next May", d(2024, 5, 1), d(2024, 6, 1), Month, ""},
		{"last summer", d(2022, 6, 1), d(2022, 9, 1), Season, ""},
		{"this summer", d(2023, 6, 1), d(2023, 9, 1), Season, ""},
		{"next summer", d(2024, 6, 1), d(2024, 9, 1), Season, ""},
		{"last winter", d(2022, 12, 1), d(2023, 3, 1), Season, ""},
		{"next fall", d(2023, 9, 1), d(2023, 12, 1), Season, ""},
		{"in 2022", d(2022, 1, 1), d(2023, 1, 1), Year, ""},
		{"in March", d(2023, 3, 1), d(2023, 4, 1), Month, ""},
		{"in May", d(2023, 5, 1), d(2023, 6, 1), Month, ""},
		{"May 7", d(2023, 5, 7), d(2023, 5, 8), Day, ""},
		{"7 May", d(2023, 5, 7), d(2023, 5, 8), Day, ""},
		{"7th of May 2021", d(2021, 5, 7), d(2021, 5, 8), Day, ""},
		{"May 7th, 2021", d(2021, 5, 7), d(2021, 5, 8), Day, ""},
		{"8 May, 2023", d(2023, 5, 8), d(2023, 5, 9), Day, ""},
		{"Sept 1st", d(2023, 9, 1), d(2023, 9, 2), Day, ""},
		{"May 2021", d(2021, 5, 1), d(2021, 6, 1), Month, ""},
		{"29 February 2024", d(2024, 2, 29), d(2024, 3, 1), Day, ""},
		{"the week before 9 June 2023", d(2023, 5, 29), d(2023, 6, 5), Week, "the week before 9 June 2023"},
		{"the Sunday before 25 May 2023", d(2023, 5, 21), d(2023, 5, 22), Day, "the Sunday before 25 May 2023"},
		{"the weekend before 25 May 2023", d(2023, 5, 20), d(2023, 5, 22), Day, "the weekend before 25 May 2023"},
		{"the weekend after 25 May 2023", d(2023, 5, 27), d(2023, 5, 29), Day, "the weekend after 25 May 2023"},
		{"the day after May 7", d(2023, 5, 8), d(2023, 5, 9), Day, "the day after May 7"},
		{"two days before 8 May 2023", d(2023, 5, 6), d(2023, 5, 7), Day, "two days before 8 May 2023"},
		{"the month after 3 January 2022", d(2022, 2, 1), d(2022, 3, 1), Month, "the month after 3 January 2022"},
	} {
		t.Run(tc.expr, func(t *testing.T) {
			s, ok := Resolve(tc.expr, ref)
			if !ok {
				t.Fatalf("not resolved; Find gave %+v", Find(tc.expr, ref))
			}
			if !s.Start.Equal(tc.start) || !s.End.Equal(tc.end) || s.Grain != tc.grain || s.Relative != tc.rel {
				t.Errorf("got [%s, %s) %s %q, want [%s, %s) %s %q", s.Start.Format(time.DateOnly), s.End.Format(time.DateOnly),
					s.Grain, s.Relative, tc.start.Format(time.DateOnly), tc.end.Format(time.DateOnly), tc.grain, tc.rel)
			}
		})
	}
}

// What the package documents as not resolved stays text: no span at all.
func TestUnresolvedStaysText(t *testing.T) {
	for _, text := range []string{
		"recently", "the other day", "a few days ago", "several weeks ago", "a while back", "on Saturday",
		"07/05/2023", "at 5pm", "we may go", "I have 2000 reasons", "for two weeks", "31 April", "in 1850",
		"the week after the concert", "at Christmas", "Jolene: Where is it?", "",
	} {
		if got := Find(text, ref); len(got) != 0 {
			t.Errorf("%q: resolved to %+v, want nothing", text, got)
		}
	}
}

// Find reports each expression once, where it is written, in order.
func TestFindInText(t *testing.T) {
	text := "Yesterday I booked the trip for next month; we last met on 1:56 pm on 8 May, 2023."
	got := Find(text, ref)
	want := []struct {
		text  string
		start time.Time
	}{{"Yesterday", d(2023, 6, 8)}, {"next month", d(2023, 7, 1)}, {"8 May, 2023", d(2023, 5, 8)}}
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %d spans", got, len(want))
	}
	for i, w := range want {
		if got[i].Text != w.text || text[got[i].Pos:got[i].Pos+len(got[i].Text)] != w.text || !got[i].Start.Equal(w.start) {
			t.Errorf("span %d: %+v, want %q from %s", i, got[i], w.text, w.start.Format(time.DateOnly))
		}
	}
	if _, ok := Resolve("last week please", ref); ok {
		t.Error("Resolve took an expression with words left over")
	}
}

// Days are the reference's UTC date; a year boundary and a winter that
// spans two years resolve across it.
func TestCalendarEdges(t *testing.T) {
	late := time.Date(2023, 6, 9, 23, 30, 0, 0, time.FixedZone("EST", -5*3600)) // 10 June in UTC
	if s, _ := Resolve("yesterday", late); !s.Start.Equal(d(2023, 6, 9)) {
		t.Errorf("yesterday at 23:30 EST on 9 June: %s, want 9 June (the UTC date is 10 June)", s.Start)
	}
	jan := d(2023, 1, 2) // a Monday
	for expr, want := range map[string]time.Time{
		"last week": d(2022, 12, 26), "last December": d(2022, 12, 1), "next month": d(2023, 2, 1),
		"last winter": d(2021, 12, 1), "this winter": d(2022, 12, 1), "yesterday": d(2023, 1, 1), "last Monday": d(2022, 12, 26),
	} {
		if s, ok := Resolve(expr, jan); !ok || !s.Start.Equal(want) {
			t.Errorf("%s on 2 January 2023: %+v, want from %s", expr, s, want.Format(time.DateOnly))
		}
	}
	if s, _ := Resolve("a year ago", d(2024, 2, 29)); !s.Start.Equal(d(2023, 1, 1)) {
		t.Errorf("a year ago on 29 February 2024: %s", s.Start)
	}
}

func TestLabel(t *testing.T) {
	for expr, want := range map[string]string{
		"yesterday": "8 June 2023", "last weekend": "3–4 June 2023", "last week": "the week of 29 May 2023",
		"last month": "May 2023", "last summer": "summer 2022", "in 2022": "2022", "last winter": "winter 2022",
		"the weekend after 30 June 2023": "1–2 July 2023",
	} {
		if s, _ := Resolve(expr, ref); s.Label() != want {
			t.Errorf("%s: label %q, want %q", expr, s.Label(), want)
		}
	}
}

// Whatever the text, spans are well formed: where they say, non-empty,
// in order, and at midnight UTC.
func FuzzFind(f *testing.F) {
	for _, s := range []string{"last week", "two days ago and next Friday", "the Sunday before 25 May 2023", "in in 2022 May"} {
		f.Add(s, int64(0))
	}
	f.Fuzz(func(t *testing.T, text string, shift int64) {
		r := ref.Add(time.Duration(shift%(1<<50)) * time.Nanosecond)
		prev := -1
		for _, s := range Find(text, r) {
			if s.Pos <= prev || !strings.HasPrefix(text[s.Pos:], s.Text) || s.Text == "" {
				t.Fatalf("span %+v out of place in %q", s, text)
			}
			if !s.Start.Before(s.End) || s.Start != day(s.Start) || s.End != day(s.End) {
				t.Fatalf("span %+v is not a whole-day interval", s)
			}
			prev = s.Pos
		}
	})
}
