package workers

import (
	"context"
	"encoding/json"

	"github.com/cmem/cmem/app"
	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/subjects"
)

// Publisher publishes on core NATS subjects (*nats.Conn is one).
type Publisher interface {
	Publish(subject string, data []byte) error
}

// AnswersSubject is where every answer of a user is published, for callers
// that subscribe rather than wait on a reply subject.
func AnswersSubject(user string) string { return "cmem.answers." + user }

// QuerySubject is where a user publishes queries onto the bus.
func QuerySubject(user string) string { return "cmem.query." + user }

// Reply publishes a finished query's answer on its reply subject, if it
// came over the bus, and on the user's answers subject. Delivery is at least
// once: a redelivered QueryAnswered publishes again, which a request-reply
// caller ignores after its first answer.
func (p *Pipeline) Reply(ctx context.Context, rec events.Record) error {
	q, ok, err := p.load(ctx, rec)
	if err != nil || !ok || !q.Done || p.Bus == nil {
		return err
	}
	body, err := json.Marshal(app.RenderQuery(q))
	if err != nil {
		return err
	}
	// Guard (issue 17): cmem's connection may publish anywhere, so a reply
	// goes only under the asking user's inboxes, whatever the log holds.
	if q.Reply != "" && !subjects.ReplyAllowed(q.User, q.Reply) {
		subjects.Dropped("replier")
		q.Reply = ""
	}
	if q.Reply != "" {
		if err := p.Bus.Publish(q.Reply, body); err != nil {
			return err
		}
	}
	return p.Bus.Publish(AnswersSubject(q.User), body)
}
