package locomo

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/cmem/cmem/clients/httpclient"
	"github.com/cmem/cmem/domain"
)

// loaded is one conversation as written to cmem: who reads it, through
// which agent, and which dialog id each fragment holds.
type loaded struct {
	conv   Conversation
	agent  string
	reader string            // the reader user's token
	dia    map[string]string // fragment id → dialog id
	values map[string]string // dialog id → the value written for it
	rev    uint64            // the revision of the last write
	lex    lexical           // BM25 over the same values, ids are dialog ids
}

// ids are the ids one run gives a conversation's agent and users; run
// makes them new on a cmem that already holds an earlier run.
func ids(run string, i int, name string) string {
	clean := strings.Map(func(r rune) rune {
		if r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-') {
			return unicode.ToLower(r)
		}
		return -1
	}, name)
	id := fmt.Sprintf("lm%s-c%d-%s", run, i, clean)
	return id[:min(128, len(id))]
}

// turnKey and turnValue are what a turn is remembered as. The value is
// what LoCoMo's own baselines put in a model's context: the speaker, the
// session's date, the text, and the caption of a shared image.
func turnKey(mode string, s Session, t Turn) string {
	if mode == "speaker-date" {
		return t.Speaker + ", " + s.Date
	}
	text := t.Text
	if strings.TrimSpace(text) == "" {
		text = "shared " + t.Caption
	}
	r := []rune(t.Speaker + ": " + text)
	return string(r[:min(len(r), 256)])
}

func turnValue(s Session, t Turn) string {
	v := fmt.Sprintf("%s (%s): %s", t.Speaker, s.Date, t.Text)
	if t.Caption != "" {
		v += " [shared " + t.Caption + "]"
	}
	return v
}

// load registers conversation i's agent, its two speakers and a reader,
// and writes every turn as a shared fragment by its speaker.
func (r *runner) load(ctx context.Context, i int, c Conversation) (*loaded, error) {
	l := &loaded{conv: c, agent: ids(r.run, i, "memory"), dia: map[string]string{}, values: map[string]string{}, lex: newLexical()}
	if err := r.api.agent(ctx, l.agent, "remembers the conversations of "+c.SpeakerA+" and "+c.SpeakerB); err != nil {
		return nil, err
	}
	tokens := map[string]string{}
	for _, name := range []string{c.SpeakerA, c.SpeakerB, "reader"} {
		id := ids(r.run, i, name)
		tok, err := r.api.user(ctx, id)
		if err != nil {
			return nil, err
		}
		if err := r.api.grant(ctx, id, l.agent); err != nil {
			return nil, err
		}
		tokens[name] = tok
	}
	l.reader = tokens["reader"]
	type job struct {
		s Session
		t Turn
		n int // the turn's place in its session
	}
	jobs := make(chan job)
	var mu sync.Mutex
	var firstErr error
	var rev atomic.Uint64
	var wg sync.WaitGroup
	for range r.cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				tok, ok := tokens[j.t.Speaker]
				if !ok { // a turn by someone else: the conversation's first speaker's memory
					tok = tokens[c.SpeakerA]
				}
				w := httpclient.Write{Agent: l.agent, Key: turnKey(r.cfg.Key, j.s, j.t), Value: turnValue(j.s, j.t), Tier: "shared", Resources: []string{}}
				ans, err := r.writeTurn(ctx, tok, w, turnTime(j.s.When, j.n))
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("turn %s: %w", j.t.DiaID, err)
				}
				for _, f := range ans.Fragments {
					l.dia[f.ID] = j.t.DiaID
				}
				l.values[j.t.DiaID] = w.Value
				mu.Unlock()
				for cur := rev.Load(); ans.Revision > cur && !rev.CompareAndSwap(cur, ans.Revision); cur = rev.Load() {
				}
			}
		}()
	}
	for _, s := range c.Sessions {
		for n, t := range s.Turns {
			l.lex.Add(t.DiaID, turnValue(s, t))
			select {
			case jobs <- job{s, t, n}:
			case <-ctx.Done():
			}
		}
	}
	close(jobs)
	wg.Wait()
	l.rev = rev.Load()
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	return l, firstErr
}

// TurnSpacing is how far apart a session's turns are observed. LoCoMo
// dates a session, not its turns, so the loader gives the n-th turn the
// session's time plus n·TurnSpacing, a chat's usual pace: the order of the
// turns is then part of what cmem knows (its view reads the turns next to
// a hit as context), as it is for any writer that stamps its messages.
const TurnSpacing = 30 * time.Second

// turnTime is when the n-th turn of a session starting at start was
// observed; zero when the session's date did not parse.
func turnTime(start time.Time, n int) time.Time {
	if start.IsZero() {
		return start
	}
	return start.Add(time.Duration(n) * TurnSpacing)
}

// writeTurn writes one turn with observed_at = its session's date while
// the server accepts the field; the first refusal of it turns it off for
// the run (a server from before observed_at), and the write is sent again
// without it.
func (r *runner) writeTurn(ctx context.Context, token string, w httpclient.Write, when time.Time) (ans httpclient.Written, err error) {
	if !when.IsZero() && !r.noObservedAt.Load() {
		w.ObservedAt = when
		ans, err = r.api.write(ctx, token, w)
		if err == nil || !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), "observed_at") {
			return ans, err
		}
		r.noObservedAt.Store(true)
		w.ObservedAt = time.Time{}
	}
	return r.api.write(ctx, token, w)
}
