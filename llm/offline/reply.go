package offline

import (
	"strings"
	"time"
)

// In a conversation the answer to what someone is asked is their next
// turn, which often repeats none of the words asked: "Maria: What's your
// main focus?" "John: Improving education and infrastructure." A
// question asking what John's main focus is aligns with Maria's question,
// not with John's reply. So a turn said right after another speaker's
// question gets a share of how well that question aligns with the one
// being answered (replyShare).

// replyShare is the share of its prompt's score a reply gains; on LoCoMo's
// conversations 0-4 (replayed answers) 0.3 and 0.5 did alike, 1.0 worse.
const replyShare = 0.3

// replyWindow is how soon after another speaker's question a turn
// is taken for the reply to it.
const replyWindow = 90 * time.Second

// byReplies adds to each ranked sentence of a turn said within
// replyWindow after another speaker's turn holding a question (among
// cands, the memory offered) replyShare of that question's best score.
func (o *Provider) byReplies(al aligner, w *weigher, question string, names []string, ranked, cands []rankedSentence) {
	type turn struct {
		at      time.Time
		speaker string
		asks    []string
	}
	turns := map[string]*turn{}
	var order []string
	for _, c := range cands {
		if c.id == "" || c.at.IsZero() {
			continue
		}
		t := turns[c.id]
		if t == nil {
			who, _ := speakerLabel(c.text)
			t = &turn{at: c.at, speaker: who}
			turns[c.id] = t
			order = append(order, c.id)
		}
		if strings.HasSuffix(strings.TrimSpace(c.text), "?") {
			t.asks = append(t.asks, c.text)
		}
	}
	bonus := map[string]float32{}
	for _, id := range order {
		r := turns[id]
		if r.speaker == "" {
			continue
		}
		var prompt *turn
		for _, qid := range order {
			q := turns[qid]
			if q.speaker == "" || q.speaker == r.speaker || !q.at.Before(r.at) || r.at.Sub(q.at) > replyWindow {
				continue
			}
			if prompt == nil || q.at.After(prompt.at) {
				prompt = q
			}
		}
		if prompt == nil {
			continue
		}
		for _, a := range prompt.asks {
			bonus[id] = max(bonus[id], replyShare*o.rankScore(al, w, question, names, a))
		}
	}
	for i := range ranked {
		ranked[i].score += bonus[ranked[i].id]
	}
}
