package locomo

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Config says which conversations to load, against which cmem, and what
// to write.
type Config struct {
	// Data is locomo10.json, one sample file, or a directory of them.
	Data string
	// URL is a running cmem's base URL and Token its admin token; an empty
	// URL starts an embedded cmem on a temporary data dir.
	URL, Token string
	// K is the depth of the ranked lists asked for (default 10); recall is
	// reported at 5, 10 and K.
	K int
	// Conversations selects conversations by their index in the data:
	// "" (all), "0-9", "0,3,5" or "2".
	Conversations string
	// Key is how a turn's fragment key is made: "text" (the default: the
	// speaker and the turn's text, as an agent would remember a sentence)
	// or "speaker-date" (the speaker and session date, so the content is
	// only in the value).
	Key string
	// Workers is how many writes, views or queries run at once (default 4).
	Workers int
	// NoAnswers skips the queries: recall only.
	NoAnswers bool
	// Label names the answering configuration in the report; empty is
	// derived from the environment of an embedded cmem.
	Label string
	// Out, when set, receives one JSON line per question.
	Out string
	// Progress receives a line per conversation and phase; nil none.
	Progress io.Writer
}

// WithDefaults returns c with K 10, Key "text" and Workers 4 where unset.
func (c Config) WithDefaults() Config {
	c.K = cmp.Or(c.K, 10)
	c.Key = cmp.Or(c.Key, "text")
	c.Workers = cmp.Or(c.Workers, 4)
	return c
}

// Validate reports every problem with c.
func (c Config) Validate() error {
	var errs []error
	if c.Data == "" {
		errs = append(errs, errors.New("locomo: Data (-data) is required"))
	}
	if c.K < 1 || c.K > 100 {
		errs = append(errs, fmt.Errorf("locomo: K must be 1..100, got %d", c.K))
	}
	if c.Key != "text" && c.Key != "speaker-date" {
		errs = append(errs, fmt.Errorf("locomo: Key must be text or speaker-date, got %q", c.Key))
	}
	if c.Workers < 1 {
		errs = append(errs, fmt.Errorf("locomo: Workers must be positive, got %d", c.Workers))
	}
	if c.URL != "" && c.Token == "" {
		errs = append(errs, errors.New("locomo: a running cmem (URL) needs its admin Token"))
	}
	if _, err := selection(c.Conversations, 1000); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// selection parses Conversations into the indexes it names below n, in
// order; empty means all.
func selection(s string, n int) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out, nil
	}
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		b := a
		if err == nil && isRange {
			b, err = strconv.Atoi(hi)
		}
		if err != nil || a < 0 || b < a {
			return nil, fmt.Errorf("locomo: conversations %q: want indexes like 0-9 or 0,3,5", s)
		}
		for i := a; i <= b && i < n; i++ {
			out = append(out, i)
		}
	}
	return out, nil
}
