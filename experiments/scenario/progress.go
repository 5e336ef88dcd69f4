package scenario

import (
	"fmt"
	"io"
	"strings"
	"time"
)

// progress draws a one-line bar on w (stderr): label, done/total, elapsed.
type progress struct {
	w     io.Writer
	label string
	total int
	done  int
	start time.Time
	last  time.Time
}

func newProgress(w io.Writer, label string, total int) *progress {
	p := &progress{w: w, label: label, total: total, start: time.Now()}
	p.draw()
	return p
}

// step counts one unit done and redraws at most ten times a second.
func (p *progress) step() {
	p.done++
	if p.w == nil {
		return
	}
	if time.Since(p.last) > 100*time.Millisecond || p.done == p.total {
		p.draw()
	}
}

func (p *progress) draw() {
	if p.w == nil {
		return
	}
	p.last = time.Now()
	const width = 30
	fill := 0
	if p.total > 0 {
		fill = p.done * width / p.total
	}
	_, _ = fmt.Fprintf(p.w, "\r%-28s [%s%s] %d/%d %s", p.label, strings.Repeat("#", fill), strings.Repeat(".", width-fill),
		p.done, p.total, time.Since(p.start).Round(time.Second))
}

// finish ends the bar's line.
func (p *progress) finish() {
	if p.w != nil {
		p.draw()
		_, _ = fmt.Fprintln(p.w)
	}
}
