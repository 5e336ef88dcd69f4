package timeexpr

import (
	"strconv"
	"strings"
	"time"
	"unicode"
)

// tok is one word of the text, lower-cased, with its byte range.
type tok struct {
	w        string
	pos, end int
}

// words splits text into runs of letters and digits ("7th" is one word);
// punctuation and spaces only separate them.
func words(text string) []tok {
	var out []tok
	start := -1
	for i, r := range text {
		inWord := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case inWord && start < 0:
			start = i
		case !inWord && start >= 0:
			out = append(out, tok{strings.ToLower(text[start:i]), start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, tok{strings.ToLower(text[start:]), start, len(text)})
	}
	return out
}

var numberWords = map[string]int{
	"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
	"sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
}

// number reads a count written as digits (1–999) or a word up to twenty.
func number(w string) (int, bool) {
	if n, ok := numberWords[w]; ok {
		return n, true
	}
	n, err := strconv.Atoi(w)
	return n, err == nil && n >= 1 && n <= 999
}

// unit reads day(s), week(s), month(s) or year(s) as its grain.
func unit(w string) (Grain, bool) {
	switch strings.TrimSuffix(w, "s") {
	case "day":
		return Day, true
	case "week":
		return Week, true
	case "month":
		return Month, true
	case "year":
		return Year, true
	}
	return "", false
}

// weekdayAbbrev are the short forms of weekdays read after last, this and
// next ("last Fri"); alone they are too often other words ("sat", "sun").
var weekdayAbbrev = map[string]string{"mon": "monday", "tue": "tuesday", "tues": "tuesday", "wed": "wednesday",
	"thu": "thursday", "thur": "thursday", "thurs": "thursday", "fri": "friday", "sat": "saturday", "sun": "sunday"}

var weekdays = map[string]time.Weekday{
	"monday": time.Monday, "tuesday": time.Tuesday, "wednesday": time.Wednesday, "thursday": time.Thursday,
	"friday": time.Friday, "saturday": time.Saturday, "sunday": time.Sunday,
}

// months holds the full names and the abbreviations that are not also
// common words ("mar", "may" as a verb is only taken with a day or year).
var months = map[string]time.Month{
	"january": time.January, "february": time.February, "march": time.March, "april": time.April,
	"may": time.May, "june": time.June, "july": time.July, "august": time.August, "september": time.September,
	"october": time.October, "november": time.November, "december": time.December,
	"jan": time.January, "feb": time.February, "apr": time.April, "jun": time.June, "jul": time.July,
	"aug": time.August, "sep": time.September, "sept": time.September, "oct": time.October,
	"nov": time.November, "dec": time.December,
}

// seasons maps a season's name to its first month.
var seasons = map[string]time.Month{
	"spring": time.March, "summer": time.June, "autumn": time.September, "fall": time.September, "winter": time.December,
}

// dayOfMonth reads 7, 07, 7th, 1st, 22nd, 3rd as a day 1–31.
func dayOfMonth(w string) (int, bool) {
	for _, suf := range []string{"st", "nd", "rd", "th"} {
		if strings.HasSuffix(w, suf) && len(w) > len(suf) {
			w = strings.TrimSuffix(w, suf)
			break
		}
	}
	if len(w) > 2 {
		return 0, false
	}
	n, err := strconv.Atoi(w)
	return n, err == nil && n >= 1 && n <= 31
}

// year reads a four-digit year 1900–2099.
func year(w string) (int, bool) {
	if len(w) != 4 {
		return 0, false
	}
	n, err := strconv.Atoi(w)
	return n, err == nil && n >= 1900 && n <= 2099
}
