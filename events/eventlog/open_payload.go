package eventlog

import (
	"context"

	"github.com/cmem/cmem/events"
)

// PayloadOpener is a Sealer that can also hand back the payload it opened
// (implemented by *shred.Sealer), which spares a reader a second decode.
type PayloadOpener interface {
	OpenPayload(ctx context.Context, e events.Envelope) (events.Envelope, events.Payload, error)
}

// OpenPayload is Open that also returns e's opened payload when the sealer
// can vouch that it is exactly what decoding the returned Data gives; nil
// means the reader decodes Data itself.
func (l *Log) OpenPayload(ctx context.Context, e events.Envelope) (events.Envelope, events.Payload, error) {
	if po, ok := l.sealer.(PayloadOpener); ok {
		return po.OpenPayload(ctx, e)
	}
	e, err := l.Open(ctx, e)
	return e, nil, err
}
