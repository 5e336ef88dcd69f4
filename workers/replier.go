package workers

import (
	"context"
	"encoding/json"

	"github.com/cmem/cmem/events"
	"github.com/cmem/cmem/events/subjects"
)

// reply publishes a finished query, as its user may see it now
// (app.Pipeline.Delivery), on its reply subject if it came over the bus and
// on the user's answers subject (subjects.Answers). Delivery is at least
// once: a redelivered QueryAnswered publishes again, which a request-reply
// caller ignores after its first answer.
func (p *Pipeline) reply(ctx context.Context, rec events.Record) error {
	if p.bus == nil {
		return nil
	}
	d, ok, err := p.app.Delivery(ctx, rec.CorrelationID, rec.Revision)
	if err != nil || !ok {
		return err
	}
	body, err := json.Marshal(d.Answer)
	if err != nil {
		return err
	}
	// Guard (issue 17): cmem's connection may publish anywhere, so a reply
	// goes only under the asking user's inboxes, whatever the log holds.
	if d.Reply != "" && !subjects.ReplyAllowed(d.User, d.Reply) {
		subjects.Dropped("replier")
		d.Reply = ""
	}
	if d.Reply != "" {
		if err := p.bus.Publish(d.Reply, body); err != nil {
			return err
		}
	}
	return p.bus.Publish(subjects.Answers(d.User), body)
}
